/** The persistent KeyValueStore: RocksDB (via @nxtedition/rocksdb) in a directory under the node's data dir. */
import { mkdirSync } from 'node:fs';
import { RocksLevel } from '@nxtedition/rocksdb';
import {
  StoreError,
  StoreErrorCode,
  normaliseRange,
  type KeyRange,
  type KeyValueStore,
  type WriteBatch,
} from './kv-store.js';

const BYTES = { keyEncoding: 'buffer', valueEncoding: 'buffer' } as const;

/**
 * How the database is opened. What a node stores is mostly hashes, curve points and proofs, which hardly compress:
 * the binding's default (Zstandard on every table) saved ≈ 10 % of the disk (a 10 000-block chain: 218 against
 * 243 MiB) and made every read that missed the block cache decompress a block. `point-lookup` adds a hash index to
 * each data block and a filter, for the point reads of balances and trie nodes; the block cache (filled as it is used,
 * so an idle node holds little of it) is larger than the binding's 8 MiB, enough for the balances and upper trie nodes
 * a busy node reads again and again.
 */
const OPEN_OPTIONS = {
  createIfMissing: true,
  compression: false,
  optimize: 'point-lookup',
  cacheSize: 64 << 20,
} as const;

// The binding's own typings are loose; this is the part of its API we use.
interface RocksDb {
  open(options?: object): Promise<void>;
  close(): Promise<void>;
  put(key: Uint8Array, value: Uint8Array, options?: object): Promise<void>;
  del(key: Uint8Array, options?: object): Promise<void>;
  getMany(keys: Uint8Array[], options?: object): Promise<(Uint8Array | undefined)[]>;
  _getManySync(keys: Uint8Array[], options?: object): (Uint8Array | undefined)[];
  /** A bounded iteration read at once: keys and values alternate in `rows`. */
  querySync(options: object): { rows: Uint8Array[] };
  batch(): {
    put(k: Uint8Array, v: Uint8Array, options?: object): void;
    del(k: Uint8Array, options?: object): void;
    write(): Promise<void>;
  };
  iterator(options: object): AsyncIterable<[Uint8Array, Uint8Array]>;
}

/** The binding reads a typed array's whole underlying buffer; hand it a Buffer view with the right offset and length. */
const buf = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const asBytes = (value: Uint8Array | undefined): Uint8Array | undefined =>
  value === undefined ? undefined : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);

export class RocksDbStore implements KeyValueStore {
  readonly kind = 'rocksdb';

  private constructor(
    private readonly db: RocksDb,
    readonly location: string,
  ) {}

  /** Opens (creating if needed) the database in `location`; a directory held by another process is a clear error. */
  static async open(location: string): Promise<RocksDbStore> {
    try {
      mkdirSync(location, { recursive: true });
    } catch (error) {
      throw new StoreError(
        StoreErrorCode.CannotOpen,
        `cannot create data directory ${location}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    const db = new RocksLevel(location) as unknown as RocksDb;
    try {
      await db.open(OPEN_OPTIONS);
    } catch (error) {
      const cause = String((error as { cause?: Error }).cause?.message ?? (error as Error).message);
      if (/lock/i.test(cause)) {
        throw new StoreError(
          StoreErrorCode.CannotOpen,
          `the database in ${location} is in use by another process (is another Umbra daemon running on this data dir?)`,
        );
      }
      throw new StoreError(StoreErrorCode.CannotOpen, `cannot open the database in ${location}: ${cause}`);
    }
    return new RocksDbStore(db, location);
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const [value] = await this.db.getMany([buf(key)], BYTES);
    return asBytes(value);
  }

  async getMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return (await this.db.getMany(keys.map(buf), BYTES)).map(asBytes);
  }

  getSync(key: Uint8Array): Uint8Array | undefined {
    return asBytes(this.db._getManySync([buf(key)], BYTES)[0]);
  }

  getManySync(keys: Uint8Array[]): (Uint8Array | undefined)[] {
    return this.db._getManySync(keys.map(buf), BYTES).map(asBytes);
  }

  lastSync(lowest: Uint8Array, highest: Uint8Array): [Uint8Array, Uint8Array] | undefined {
    const { rows } = this.db.querySync({ ...BYTES, gte: buf(lowest), lte: buf(highest), reverse: true, limit: 1 });
    return rows.length === 2 ? [asBytes(rows[0])!, asBytes(rows[1])!] : undefined;
  }

  put(key: Uint8Array, value: Uint8Array): Promise<void> {
    return this.db.put(buf(key), buf(value), BYTES);
  }

  del(key: Uint8Array): Promise<void> {
    return this.db.del(buf(key), BYTES);
  }

  batch(): WriteBatch {
    const batch = this.db.batch();
    let length = 0;
    let written = false;
    return {
      put(key, value) {
        batch.put(buf(key), buf(value), BYTES);
        length++;
        return this;
      },
      del(key) {
        batch.del(buf(key), BYTES);
        length++;
        return this;
      },
      get length() {
        return length;
      },
      async write() {
        if (written) throw new StoreError(StoreErrorCode.BatchReused, 'write batch was already written');
        written = true;
        await batch.write();
      },
    };
  }

  async *entries(range: KeyRange = {}): AsyncIterable<[Uint8Array, Uint8Array]> {
    const { reverse, limit, ...bounds } = normaliseRange(range);
    const buffers = Object.fromEntries(Object.entries(bounds).map(([name, bytes]) => [name, buf(bytes as Uint8Array)]));
    const options = { ...BYTES, ...buffers, reverse: reverse ?? false, limit: limit ?? -1 };
    for await (const [key, value] of this.db.iterator(options)) yield [asBytes(key)!, asBytes(value)!];
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
