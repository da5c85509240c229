/**
 * An in-memory KeyValueStore for tests and throw-away nodes (the simulator's chain); same semantics as the RocksDB
 * store. Values are found by key in a hash map; the keys are also kept in order in a B+ tree, so that a versioned
 * look-up (`lastSync`, read for every balance) and a range read cost a descent, not a sort of every key.
 */
import { Buffer } from 'node:buffer';
import sortedBtree from 'sorted-btree';
import {
  StoreError,
  StoreErrorCode,
  normaliseRange,
  type KeyRange,
  type KeyValueStore,
  type WriteBatch,
} from './kv-store.js';

const keyOf = (key: Uint8Array): string => Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');
const bytesOf = (key: string): Uint8Array => new Uint8Array(Buffer.from(key, 'latin1'));

export class MemoryStore implements KeyValueStore {
  readonly kind = 'memory';
  private readonly map = new Map<string, Uint8Array>();
  /** The keys in order (latin1 strings compare code unit by code unit, which is unsigned byte order). */
  private readonly order = new sortedBtree.default<string, undefined>();
  private closed = false;

  private ensureOpen(): void {
    if (this.closed) throw new StoreError(StoreErrorCode.Closed, 'store is closed');
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.getSync(key);
  }

  getSync(key: Uint8Array): Uint8Array | undefined {
    this.ensureOpen();
    const value = this.map.get(keyOf(key));
    return value && Uint8Array.from(value);
  }

  async getMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return this.getManySync(keys);
  }

  getManySync(keys: Uint8Array[]): (Uint8Array | undefined)[] {
    return keys.map((key) => this.getSync(key));
  }

  lastSync(lowest: Uint8Array, highest: Uint8Array): [Uint8Array, Uint8Array] | undefined {
    this.ensureOpen();
    const found = this.order.getPairOrNextLower(keyOf(highest))?.[0];
    return found !== undefined && found >= keyOf(lowest)
      ? [bytesOf(found), Uint8Array.from(this.map.get(found)!)]
      : undefined;
  }

  private set(key: string, value: Uint8Array | undefined): void {
    if (value === undefined) {
      this.map.delete(key);
      this.order.delete(key);
      return;
    }
    if (!this.map.has(key)) this.order.set(key, undefined);
    this.map.set(key, value);
  }

  async put(key: Uint8Array, value: Uint8Array): Promise<void> {
    this.ensureOpen();
    this.set(keyOf(key), Uint8Array.from(value));
  }

  async del(key: Uint8Array): Promise<void> {
    this.ensureOpen();
    this.set(keyOf(key), undefined);
  }

  batch(): WriteBatch {
    const ops: [string, Uint8Array | undefined][] = [];
    let written = false;
    const store = this;
    return {
      put(key, value) {
        ops.push([keyOf(key), Uint8Array.from(value)]);
        return this;
      },
      del(key) {
        ops.push([keyOf(key), undefined]);
        return this;
      },
      get length() {
        return ops.length;
      },
      async write() {
        if (written) throw new StoreError(StoreErrorCode.BatchReused, 'write batch was already written');
        store.ensureOpen();
        written = true;
        for (const [key, value] of ops) store.set(key, value);
      },
    };
  }

  async *entries(range: KeyRange = {}): AsyncIterable<[Uint8Array, Uint8Array]> {
    this.ensureOpen();
    const { gt, gte, lt, lte, reverse, limit } = normaliseRange(range);
    const [gtK, gteK, ltK, lteK] = [gt, gte, lt, lte].map((k) => (k ? keyOf(k) : undefined));
    const above = (k: string): boolean => (gtK === undefined || k > gtK) && (gteK === undefined || k >= gteK);
    const below = (k: string): boolean => (ltK === undefined || k < ltK) && (lteK === undefined || k <= lteK);
    const wanted = limit !== undefined && limit >= 0 ? limit : Number.POSITIVE_INFINITY;
    // The keys are taken before the first is yielded, so writes while the caller reads do not disturb the walk.
    const keys: string[] = [];
    const walk = reverse ? this.order.entriesReversed(lteK ?? ltK) : this.order.entries(gteK ?? gtK);
    for (const [key] of walk) {
      if (keys.length >= wanted || !(reverse ? above(key) : below(key))) break;
      if (reverse ? below(key) : above(key)) keys.push(key);
    }
    for (const key of keys) {
      const value = this.map.get(key);
      if (value) yield [bytesOf(key), Uint8Array.from(value)];
    }
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
