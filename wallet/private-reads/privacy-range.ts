/**
 * The wallet's privacy range in the balance trie of an asset: the deepest prefix of its key hash whose range holds at
 * least K accounts (the whole trie while fewer are registered). Reading that range whole, instead of the wallet's own
 * key, tells the daemon only that the wallet is one of those K or more.
 *
 * It is found walking down from the whole trie without naming anything narrower than where the walk ends: each range
 * is read with a limit of a few times K, so a split answer (more leaves than the limit) says its half holding the key
 * hash is still far above K, and the first range that fits in an answer gives its leaves, below which the rest is
 * counted locally. Accounts are never removed, so a range once holding K accounts always will: the caller keeps it
 * (privacyRangeToJson) and reuses it on later syncs.
 */
import { fromHex, isWholeBytesHex, toHex } from '../../protocol/bytes.js';
import {
  halvesOf,
  inRange,
  isWellFormed,
  MAX_RANGE_BITS,
  WHOLE_TRIE,
  type ChunkLeaf,
  type KeyRange,
} from '../../protocol/state/range-check.js';
import type { StateHashes } from '../../protocol/state/state-proof.js';
import { trieName } from '../../protocol/state/trie-names.js';
import { MAX_PROOF_LEAVES_PER_ANSWER } from './proof-client.js';
import type { TrieReader } from './trie-reader.js';

/** Accounts a privacy range holds at least, unless the chain has fewer. */
export const DEFAULT_PRIVACY_K = 256;

/** How many times K a walk's answer may hold: a split then leaves each half far above K. */
const LIMIT_PER_K = 4;

export interface PrivacyRangeQuery {
  /** 32 bytes; zeros for the native coin. */
  asset: Uint8Array;
  /** BLAKE2s of the account's public key. */
  keyhash: Uint8Array;
  /** A topoheight whose header the wallet verified (its top, usually). */
  topoheight: bigint;
  k?: number;
}

/** The half of `range` that holds `keyhash`. */
const halfHolding = (range: KeyRange, keyhash: Uint8Array): KeyRange =>
  halvesOf(range).find((half) => inRange(keyhash, half))!;

/** The deepest range at or below `range` that holds `keyhash` and at least k of `leaves` (range's own leaves). */
function deepestHolding(hashes: StateHashes, leaves: ChunkLeaf[], range: KeyRange, keyhash: Uint8Array, k: number) {
  let keyhashes = leaves.map((leaf) => hashes.blake2s256(leaf.key));
  let deepest = range;
  while (deepest.bits < MAX_RANGE_BITS) {
    const half = halfHolding(deepest, keyhash);
    const inHalf = keyhashes.filter((hash) => inRange(hash, half));
    if (inHalf.length < k) break;
    keyhashes = inHalf;
    deepest = half;
  }
  return deepest;
}

/** A privacy range found, with every leaf of the proven answer that held it whole (when one did). */
export interface FoundRange {
  range: KeyRange;
  /** The leaves of a proven answer covering `range`: a superset of its own. */
  leaves?: ChunkLeaf[];
}

/** Finds the privacy range of `query.keyhash` in the balance trie of `query.asset` (see the file's comment). */
export async function privacyRange(
  reader: Pick<TrieReader, 'read'>,
  hashes: StateHashes,
  query: PrivacyRangeQuery,
): Promise<FoundRange> {
  const k = query.k ?? DEFAULT_PRIVACY_K;
  if (!Number.isSafeInteger(k) || k < 1) throw new RangeError(`K must be a positive integer, got ${k}`);
  const trie = trieName('B', query.asset);
  const limit = Math.min(MAX_PROOF_LEAVES_PER_ANSWER, LIMIT_PER_K * k);
  let above = WHOLE_TRIE;
  let range = WHOLE_TRIE;
  for (;;) {
    const what = `the accounts of asset ${toHex(query.asset)} under a ${range.bits}-bit prefix`;
    const [proven] = await reader.read([{ trie, range, limit, what }], query.topoheight);
    if (!proven!.split) {
      // Only a range holding fewer than the limit can hold fewer than K: then the one above it is the deepest.
      if (range.bits > 0 && proven!.leaves.length < k) return { range: above };
      return { range: deepestHolding(hashes, proven!.leaves, range, query.keyhash, k), leaves: proven!.leaves };
    }
    if (range.bits === MAX_RANGE_BITS) return { range };
    above = range;
    range = halfHolding(range, query.keyhash);
  }
}

/** A privacy range as the caller stores it. */
export interface StoredPrivacyRange {
  bits: number;
  prefix: string;
}

export const privacyRangeToJson = (range: KeyRange): StoredPrivacyRange => ({
  bits: range.bits,
  prefix: toHex(range.prefix),
});

/** A stored privacy range, checked to be a well-formed range that holds `keyhash`; undefined when it is not. */
export function privacyRangeFromJson(json: unknown, keyhash: Uint8Array): KeyRange | undefined {
  const { bits, prefix } = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  if (typeof bits !== 'number' || typeof prefix !== 'string' || !isWholeBytesHex(prefix)) return undefined;
  const range = { bits, prefix: fromHex(prefix) };
  return isWellFormed(range) && inRange(keyhash, range) ? range : undefined;
}
