/**
 * State snapshots, for fast sync (docs/protocol.md § State snapshots): checking a header chain without executing it,
 * serving and importing proven chunks of the state tries, and adopting the synced state as the chain's base.
 * Implemented by the `consensus` plugin, registered as `snapshots`; the `p2p` plugin moves the bytes.
 */
import { UmbraError } from '../../core-native/ts/errors.js';
import type { KeyRange, TrieChunk } from '../../protocol/state/range-check.js';
import type { BlockMeta } from './chain.js';

export { MAX_RANGE_BITS, type KeyRange, type TrieChunk } from '../../protocol/state/range-check.js';

/** Which trie of which state a chunk belongs to: `trie` is a named trie's name, or empty for the meta trie. */
export interface ChunkSource {
  topoheight: bigint;
  stateRoot: Uint8Array;
  trie: Uint8Array;
}

/** What a verified, stored chunk leads to next. */
export interface ImportedChunk {
  /** Ranges still to fetch, with the subtree hash each must have (skip those already held). */
  next: { range: KeyRange; hash: Uint8Array }[];
  /** For a meta-trie chunk: the named tries it lists, with their roots. */
  tries: { name: Uint8Array; root: Uint8Array }[];
  leaves: number;
}

/** Checks a chain's blocks one by one from genesis, without their transactions or state. */
export interface HeaderCheck {
  /** Checks the block after the last one (as serialised); returns its metadata (`stateVersion` unset: -1). */
  next(blockBytes: Uint8Array): BlockMeta;
}

export const SnapshotErrorCode = {
  /** A request for a key range that is not one. */
  MalformedRange: 'snapshot.malformed-range',
  /** A request for a state this node does not hold (whole). */
  StateNotHeld: 'snapshot.state-not-held',
  /** A chunk that does not prove what it claims. */
  BadChunk: 'snapshot.bad-chunk',
} as const;
export type SnapshotErrorCode = (typeof SnapshotErrorCode)[keyof typeof SnapshotErrorCode];

/** A snapshot request this node cannot serve (a state it does not hold, a malformed range). */
export class SnapshotRefused extends UmbraError<SnapshotErrorCode> {
  override readonly name = 'SnapshotRefused';
}

/** A chunk that does not prove what it claims. */
export class BadChunk extends UmbraError<SnapshotErrorCode> {
  override readonly name: string = 'BadChunk';
  constructor(message: string, options?: ErrorOptions) {
    super(SnapshotErrorCode.BadChunk, message, options);
  }
}

export interface SnapshotService {
  /** First topoheight whose state (and block) this node holds: 0 for an archive node. */
  historyFloor(): bigint;
  /** A header check starting after this node's genesis block; throws BlockRejected-style errors with the reason. */
  checkHeaders(): HeaderCheck;
  /**
   * The chunk proving `range` of a trie of a state this node holds, split when it holds more than `maxLeaves` (or
   * this node's own limit); throws SnapshotRefused.
   */
  serveChunk(source: ChunkSource, range: KeyRange, maxLeaves: number): TrieChunk;
  /**
   * Verifies a chunk against the trie's root (`trieRoot`: the state root for the meta trie) and stores its nodes;
   * throws BadChunk naming the flaw, and stores nothing then.
   */
  importChunk(trieRoot: Uint8Array, isMeta: boolean, range: KeyRange, chunk: TrieChunk): Promise<ImportedChunk>;
  /** Whether the whole subtree under `hash` is stored (so fetching it again is needless). */
  holdsSubtree(hash: Uint8Array): boolean;
  /**
   * Makes the chain start at the given blocks (consecutive, on the chain the headers proved; each with its
   * transactions, and its state fully imported): stores them, their state versions and the history floor, and makes
   * the last one the top, in one write.
   */
  adopt(blocks: { meta: BlockMeta; bytes: Uint8Array; txs: Uint8Array[] }[]): Promise<void>;
}
