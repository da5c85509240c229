/**
 * Checking a proven read of the state (docs/protocol.md § Proven reads): a range of one trie, at a state whose root
 * the client verified itself (from a header it checked), proven by a NODE.GetStateProof answer — the trie's root in
 * the meta trie, then the range's chunk against that root. A single key is read as the range of its key hash's first
 * MAX_RANGE_BITS bits, so the same proof serves key look-ups and private range reads. Pure: no I/O.
 */
import type { HashCore } from '../../core-native/ts/hash.js';
import { equalBytes, toHex } from '../bytes.js';
import { stateProofFromJson } from './proof-answers.js';
import {
  inRange,
  isWellFormed,
  MAX_RANGE_BITS,
  RangeProofError,
  verifyRange,
  type ChunkLeaf,
  type KeyRange,
} from './range-check.js';
import { StateProofError, StateProofErrorCode } from './state-proof-error.js';
import { TRIE_NAME_FORMS, trieKind } from './trie-names.js';
import { absentRangeHash, provenTrieRoot } from './trie-root-proof.js';

/** The hashes the state tries are built with. */
export type StateHashes = Pick<HashCore, 'blake2s256' | 'blake2s256Many'>;

/** What a state proof proved. */
export interface ProvenRange {
  range: KeyRange;
  /** The trie's root in that state (an empty trie's root when the state holds no such trie). */
  trieRoot: Uint8Array;
  /** The range's subtree hash: what NODE.GetRangeHistory tracks. */
  rangeHash: Uint8Array;
  /** Every (key, value) of the range, in key-hash order; none when the range was split. */
  leaves: ChunkLeaf[];
  /** The range was too large for one answer: its leaves are to be read half by half. */
  split: boolean;
  /** The non-empty halves of a split range, to ask for instead. */
  halves: KeyRange[];
}

/** Refuses a request no answer could be checked for: a name that is no trie of the state, a malformed range. */
export function checkProvenRead(trie: Uint8Array, range: KeyRange): void {
  if (!trieKind(trie))
    throw new StateProofError(
      StateProofErrorCode.BadRequest,
      `${toHex(trie) || 'an empty name'} names no trie of the state (a trie is named ${TRIE_NAME_FORMS})`,
    );
  if (!isWellFormed(range))
    throw new StateProofError(
      StateProofErrorCode.BadRequest,
      `a range has 0 … ${MAX_RANGE_BITS} bits and a prefix of just enough bytes for them, no bit set past them`,
    );
}

/** Runs a check of the range's proof, naming what it was for in the error. */
export function checkingRange<T>(what: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof RangeProofError)
      throw new StateProofError(StateProofErrorCode.BadRange, `${what}: ${error.message}`, { cause: error });
    throw error;
  }
}

/**
 * Checks a NODE.GetStateProof answer (as parsed from JSON) for `range` of trie `trie` against `stateRoot`, the root of
 * a header the client verified; returns what it proves, or throws a StateProofError saying what failed.
 */
export function verifyStateProof(
  hashes: StateHashes,
  stateRoot: Uint8Array,
  trie: Uint8Array,
  range: KeyRange,
  answer: unknown,
): ProvenRange {
  checkProvenRead(trie, range);
  const proof = stateProofFromJson(answer);
  if (!equalBytes(proof.treehash, stateRoot))
    throw new StateProofError(
      StateProofErrorCode.WrongStateRoot,
      `the answer reads state ${toHex(proof.treehash)}, not the verified ${toHex(stateRoot)}`,
    );
  const hash = (data: Uint8Array) => hashes.blake2s256(data);
  const { root, exists } = provenTrieRoot(hash, stateRoot, trie, proof.meta);
  if (!exists) {
    if (proof.chunk)
      throw new StateProofError(
        StateProofErrorCode.BadRange,
        'the answer has a chunk of a trie the state does not hold',
      );
    return { range, trieRoot: root, rangeHash: absentRangeHash(hash, range), leaves: [], split: false, halves: [] };
  }
  const { chunk } = proof;
  if (!chunk) throw new StateProofError(StateProofErrorCode.BadRange, "the answer has no chunk of the trie's range");
  const verified = checkingRange('the chunk', () =>
    verifyRange(hash, root, range, chunk, (data, ends) => hashes.blake2s256Many(data, ends)),
  );
  return {
    range,
    trieRoot: root,
    rangeHash: verified.rangeHash,
    leaves: verified.leaves.map(({ key, value }) => ({ key, value })),
    split: chunk.split,
    halves: verified.halves.map((half) => half.range),
  };
}

/** The range a single key is read as: the first MAX_RANGE_BITS bits of its key hash. */
export function keyRange(hashes: StateHashes, key: Uint8Array): KeyRange {
  return { bits: MAX_RANGE_BITS, prefix: hashes.blake2s256(key).slice(0, MAX_RANGE_BITS / 8) };
}

/** The value of `key` in a proven range that covers it whole; undefined when the state holds no such key. */
export function provenValue(hashes: StateHashes, proven: ProvenRange, key: Uint8Array): Uint8Array | undefined {
  if (!inRange(hashes.blake2s256(key), proven.range))
    throw new StateProofError(StateProofErrorCode.KeyNotCovered, `key ${toHex(key)} lies outside the proven range`);
  if (proven.split)
    throw new StateProofError(
      StateProofErrorCode.KeyNotCovered,
      'the range was split: read the half that holds the key',
    );
  return proven.leaves.find((leaf) => equalBytes(leaf.key, key))?.value;
}
