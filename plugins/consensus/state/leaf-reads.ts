/**
 * Values read from tries, by trie root and key. A trie's content is a function of its root hash alone, so a value read
 * once under a root is that root's value for good: the pool's checks, the block template and the block itself read
 * the same accounts of the same state again and again, and find them here instead of walking the trie (and hashing
 * the key) each time. Bounded; a full cache drops its older half.
 */
import { setBounded } from './bounded-map.js';
import { fillMissing } from './missing-reads.js';
import { cacheKey } from '../../../protocol/state/trie-node.js';

/** Reads remembered (≈ 150 bytes each: the key string, the entry; values are the decoded leaves' own bytes). */
const LIMIT = 1 << 16;

/** A read's entry: the root (always 32 bytes, so the key cannot shift into it) and the key, a character per byte. */
const readId = (root: Uint8Array, key: Uint8Array): string => cacheKey(root) + cacheKey(key);

export class LeafReads {
  private readonly values = new Map<string, Uint8Array | null>();

  constructor(private readonly limit = LIMIT) {}

  /** The value of `key` in the trie of `root` (a 32-byte hash), read by `read` when it is not remembered. */
  get(root: Uint8Array, key: Uint8Array, read: () => Uint8Array | undefined): Uint8Array | undefined {
    const id = readId(root, key);
    const known = this.values.get(id);
    if (known !== undefined) return known ?? undefined;
    const value = read();
    setBounded(this.values, this.limit, id, value ?? null);
    return value;
  }

  /** The values of many keys, those not remembered read by `readMany` in one call (in their order). */
  getMany(
    root: Uint8Array,
    keys: readonly Uint8Array[],
    readMany: (keys: Uint8Array[]) => (Uint8Array | undefined)[],
  ): (Uint8Array | undefined)[] {
    const ids = keys.map((key) => readId(root, key));
    const values = fillMissing(
      ids.map((id) => this.values.get(id)),
      (missing) => {
        const read = readMany(missing.map((i) => keys[i]!));
        return missing.map((i, j) => {
          const value = read[j] ?? null;
          setBounded(this.values, this.limit, ids[i]!, value);
          return value;
        });
      },
    );
    return values.map((value) => value ?? undefined);
  }
}
