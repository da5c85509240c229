/**
 * A named trie's root, proven in the meta trie (whose root is the state root): the path from the state root along the
 * key hash of the trie's name ends at the trie's leaf, whose value is its root — or at an empty subtree or another
 * leaf, which proves the state holds no such trie. A trie with no entries is left out of the meta trie, so an absent
 * trie is an empty one.
 */
import { equalBytes } from '../bytes.js';
import { followPath, RangeProofError, type KeyRange } from './range-check.js';
import { StateProofError, StateProofErrorCode } from './state-proof-error.js';
import { innerHash, nilHash, type Hasher } from './trie-node.js';

/** A key hash has 256 bits: a walk along one never goes deeper. */
export const KEY_HASH_BITS = 256;

/** A trie's root in one state, and whether the state holds the trie at all. */
export interface TrieRoot {
  root: Uint8Array;
  exists: boolean;
}

/** The root of an empty trie: always an inner node, over two empty halves. */
export const emptyTrieRoot = (hash: Hasher): Uint8Array => innerHash(hash, nilHash(hash), nilHash(hash));

/** The subtree hash of any range of an absent (empty) trie: the empty root for the whole trie, nil below it. */
export const absentRangeHash = (hash: Hasher, range: KeyRange): Uint8Array =>
  range.bits === 0 ? emptyTrieRoot(hash) : nilHash(hash);

/** The root of trie `name` in the state at `stateRoot`, as the meta-trie path `meta` proves it. */
export function provenTrieRoot(
  hash: Hasher,
  stateRoot: Uint8Array,
  name: Uint8Array,
  meta: readonly Uint8Array[],
): TrieRoot {
  const keyhash = hash(name);
  let end: ReturnType<typeof followPath>;
  try {
    end = followPath(hash, stateRoot, keyhash, KEY_HASH_BITS, meta);
  } catch (error) {
    if (error instanceof RangeProofError)
      throw new StateProofError(StateProofErrorCode.BadTrieRoot, `the meta-trie path: ${error.message}`, {
        cause: error,
      });
    throw error;
  }
  const refused = (why: string) => new StateProofError(StateProofErrorCode.BadTrieRoot, `the meta-trie path ${why}`);
  if (end.kind === 'subtree') throw refused('goes deeper than a key hash');
  if (meta.length !== end.used) throw refused('does not end where it should');
  if (end.kind === 'leaf' && equalBytes(end.leaf.keyhash, keyhash)) {
    if (!equalBytes(end.leaf.key, name)) throw refused("ends at a leaf whose key is not the trie's name");
    if (end.leaf.value.length !== 32) throw refused("ends at a leaf whose value is not a trie's root");
    return { root: end.leaf.value, exists: true };
  }
  return { root: emptyTrieRoot(hash), exists: false };
}
