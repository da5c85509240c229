/**
 * Values read from tries, by trie root and key. A trie's content is a function of its root hash alone, so a value read
 * once under a root is that root's value for good: the pool's checks, the block template and the block itself read
 * the same accounts of the same state again and again, and find them here instead of walking the trie (and hashing
 * the key) each time. Bounded; a full cache drops its older half.
 */
import { cacheKey } from './trie-node.js';

/** Reads remembered (≈ 150 bytes each: the key string, the entry; values are the decoded leaves' own bytes). */
const LIMIT = 1 << 16;

export class LeafReads {
  private readonly values = new Map<string, Uint8Array | null>();

  constructor(private readonly limit = LIMIT) {}

  /** The value of `key` in the trie of `root` (a 32-byte hash), read by `read` when it is not remembered. */
  get(root: Uint8Array, key: Uint8Array, read: () => Uint8Array | undefined): Uint8Array | undefined {
    const known = this.known(root, key);
    if (known !== undefined) return known ?? undefined;
    const value = read();
    this.remember(root, key, value);
    return value;
  }

  /** The values of many keys, those not remembered read by `readMany` in one call (in their order). */
  getMany(
    root: Uint8Array,
    keys: readonly Uint8Array[],
    readMany: (keys: Uint8Array[]) => (Uint8Array | undefined)[],
  ): (Uint8Array | undefined)[] {
    const values = keys.map((key) => this.known(root, key));
    const missing = values.flatMap((value, i) => (value === undefined ? [i] : []));
    if (missing.length > 0) {
      const read = readMany(missing.map((i) => keys[i]!));
      missing.forEach((i, j) => {
        values[i] = read[j] ?? null;
        this.remember(root, keys[i]!, read[j]);
      });
    }
    return values.map((value) => value ?? undefined);
  }

  /** The remembered value: null when remembered as absent, undefined when not remembered. */
  private known(root: Uint8Array, key: Uint8Array): Uint8Array | null | undefined {
    return this.values.get(cacheKey(root) + cacheKey(key));
  }

  private remember(root: Uint8Array, key: Uint8Array, value: Uint8Array | undefined): void {
    if (this.values.size >= this.limit) {
      let drop = Math.ceil(this.limit / 2);
      for (const old of this.values.keys()) {
        if (drop-- === 0) break;
        this.values.delete(old);
      }
    }
    this.values.set(cacheKey(root) + cacheKey(key), value ?? null);
  }
}
