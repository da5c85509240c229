/** An in-memory KeyValueStore for tests and throw-away nodes; same semantics as the RocksDB store. */
import { Buffer } from 'node:buffer';
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
  private closed = false;
  /** Every key in order, kept until a key is added or removed (versioned lookups read it many times a write). */
  private sorted: string[] | undefined;

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

  getManySync(keys: Uint8Array[]): (Uint8Array | undefined)[] {
    return keys.map((key) => this.getSync(key));
  }

  lastSync(lowest: Uint8Array, highest: Uint8Array): [Uint8Array, Uint8Array] | undefined {
    this.ensureOpen();
    const keys = (this.sorted ??= [...this.map.keys()].sort());
    const [low, high] = [keyOf(lowest), keyOf(highest)];
    // The first key above `high`; the one before it is the greatest at or below.
    let [from, to] = [0, keys.length];
    while (from < to) {
      const middle = (from + to) >>> 1;
      if (keys[middle]! <= high) from = middle + 1;
      else to = middle;
    }
    const found = keys[from - 1];
    return found !== undefined && found >= low ? [bytesOf(found), Uint8Array.from(this.map.get(found)!)] : undefined;
  }

  private set(key: string, value: Uint8Array | undefined): void {
    if (this.map.has(key) !== (value !== undefined)) this.sorted = undefined;
    if (value === undefined) this.map.delete(key);
    else this.map.set(key, value);
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
    // latin1 strings compare code unit by code unit, which is unsigned byte order.
    const keys = [...this.map.keys()]
      .filter((k) => (gtK === undefined || k > gtK) && (gteK === undefined || k >= gteK))
      .filter((k) => (ltK === undefined || k < ltK) && (lteK === undefined || k <= lteK))
      .sort();
    if (reverse) keys.reverse();
    let count = 0;
    for (const key of keys) {
      if (limit !== undefined && limit >= 0 && count++ >= limit) return;
      const value = this.map.get(key);
      if (value) yield [bytesOf(key), Uint8Array.from(value)];
    }
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
