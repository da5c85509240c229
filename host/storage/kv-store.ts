/**
 * The key-value store every plugin persists through. Keys and values are bytes; iteration is in key order
 * (unsigned byte-wise); a write batch is applied atomically or not at all.
 */
import { NodeFault } from '../../core-native/ts/errors.js';
export interface KeyRange {
  /** Only keys starting with these bytes. */
  prefix?: Uint8Array;
  gte?: Uint8Array;
  gt?: Uint8Array;
  lte?: Uint8Array;
  lt?: Uint8Array;
  reverse?: boolean;
  limit?: number;
}

export interface WriteBatch {
  put(key: Uint8Array, value: Uint8Array): this;
  del(key: Uint8Array): this;
  /** Number of operations queued. */
  readonly length: number;
  /** Applies every queued operation atomically. A batch is written at most once. */
  write(): Promise<void>;
}

export interface KeyValueStore {
  readonly kind: 'rocksdb' | 'memory';
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  /** Synchronous read for hot paths (state-tree walks). */
  getSync(key: Uint8Array): Uint8Array | undefined;
  /** Many reads at once, off the main thread where the store can (a read ahead of work that reads synchronously). */
  getMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]>;
  /** Many synchronous reads at once (cheaper per key than getSync one by one); values in the keys' order. */
  getManySync(keys: Uint8Array[]): (Uint8Array | undefined)[];
  /** The entry with the greatest key in [lowest, highest], read synchronously in one seek (versioned lookups). */
  lastSync(lowest: Uint8Array, highest: Uint8Array): [Uint8Array, Uint8Array] | undefined;
  put(key: Uint8Array, value: Uint8Array): Promise<void>;
  del(key: Uint8Array): Promise<void>;
  batch(): WriteBatch;
  entries(range?: KeyRange): AsyncIterable<[Uint8Array, Uint8Array]>;
  close(): Promise<void>;
}

export const StoreErrorCode = {
  /** The database cannot be created or opened (in use by another process, no permission, …). */
  CannotOpen: 'store.cannot-open',
  /** A store used after it was closed. */
  Closed: 'store.closed',
  /** A write batch written a second time. */
  BatchReused: 'store.batch-reused',
} as const;
export type StoreErrorCode = (typeof StoreErrorCode)[keyof typeof StoreErrorCode];

export class StoreError extends NodeFault<StoreErrorCode> {
  override readonly name = 'StoreError';
}

/** The smallest key greater than every key starting with `prefix`, or undefined when there is none (all 0xff). */
export function prefixUpperBound(prefix: Uint8Array): Uint8Array | undefined {
  const bound = Uint8Array.from(prefix);
  for (let i = bound.length - 1; i >= 0; i--) {
    if (bound[i]! < 0xff) {
      bound[i]!++;
      return bound.subarray(0, i + 1);
    }
  }
  return undefined;
}

/** Folds `prefix` into explicit bounds so both implementations only deal with gt/gte/lt/lte. */
export function normaliseRange(range: KeyRange): KeyRange {
  if (!range.prefix) return range;
  const { prefix, ...rest } = range;
  const upper = prefixUpperBound(prefix);
  const bounded: KeyRange = { ...rest };
  if (!bounded.gte && !bounded.gt) bounded.gte = prefix;
  if (!bounded.lt && !bounded.lte && upper) bounded.lt = upper;
  return bounded;
}
