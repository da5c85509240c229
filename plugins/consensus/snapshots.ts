/**
 * The `snapshots` service (host/services/snapshots.ts) over the chain and the versioned state: header checks, chunk
 * serving and import, and adopting a synced snapshot as the chain's base.
 *
 * A subtree imported whole (all its nodes are stored) is marked so (state-db.ts, `s C`) until the snapshot is adopted.
 */
import type { Core } from '../../core-native/ts/core.js';
import { equalBytes, toHex } from '../../protocol/bytes.js';
import { blockReward } from '../../protocol/chain-params.js';
import { HeaderChain } from '../../protocol/chain/header-chain.js';
import type { BlockMeta } from '../../host/services/chain.js';
import {
  BadChunk,
  SnapshotErrorCode,
  SnapshotRefused,
  type ChunkSource,
  type HeaderCheck,
  type ImportedChunk,
  type KeyRange,
  type SnapshotService,
  type TrieChunk,
} from '../../host/services/snapshots.js';
import type { KeyValueStore } from '../../host/storage/kv-store.js';
import type { Chain } from './chain.js';
import { putHistoryFloor, readHistoryFloor } from './state/history-floor.js';
import { isWellFormed, RangeProofError, verifyRange } from '../../protocol/state/range-check.js';
import { proveRange, type ChunkLimits } from './state/range-proof.js';
import { HELD_WHOLE_PREFIX, heldWholeKey, nodeStoreKey, StateError, type StateDb } from './state/state-db.js';
import { cacheKey } from '../../protocol/state/trie-node.js';
import { Trie } from './state/trie.js';

/** What one chunk may hold: well under a data frame. */
export const CHUNK_LIMITS: ChunkLimits = { leaves: 1024, bytes: 1024 * 1024 };

export interface SnapshotDeps {
  store: KeyValueStore;
  core: Core;
  chain: Chain;
  db: StateDb;
  now: () => bigint;
}

export class Snapshots implements SnapshotService {
  /**
   * Inner nodes known to root a subtree stored whole, during an import: those of every subtree a chunk rebuilt, and
   * those found so by a walk (after a restart). A later state shares most subtrees with the first, so most of its
   * ranges are found here at once. Nothing is deleted meanwhile, and adopting the snapshot clears it.
   */
  private readonly heldWhole = new Set<string>();

  constructor(private readonly deps: SnapshotDeps) {}

  historyFloor(): bigint {
    return readHistoryFloor(this.deps.store);
  }

  checkHeaders(): HeaderCheck {
    const { core, chain, now } = this.deps;
    const headers = new HeaderChain(core, chain.params, chain.metaAtTopo(0n)!, null, now);
    return {
      next: (bytes) => {
        const { header, block } = headers.next(bytes);
        return {
          ...header,
          stateVersion: -1n,
          size: bytes.length,
          txCount: block.txHashes.length,
          reward: blockReward(header.height),
        };
      },
    };
  }

  serveChunk(source: ChunkSource, range: KeyRange, maxLeaves: number): TrieChunk {
    if (!isWellFormed(range)) throw new SnapshotRefused(SnapshotErrorCode.MalformedRange, 'the key range is malformed');
    const { chain, db } = this.deps;
    const meta = chain.metaAtTopo(source.topoheight);
    const floor = this.historyFloor();
    if (!meta || source.topoheight < floor || !equalBytes(meta.stateRoot, source.stateRoot))
      throw new SnapshotRefused(
        SnapshotErrorCode.StateNotHeld,
        `this node does not hold state ${toHex(source.stateRoot)} at topoheight ${source.topoheight} ` +
          `(it holds the main chain's states from topoheight ${floor} to ${chain.top.height})`,
      );
    try {
      const snapshot = db.snapshot(meta.stateVersion);
      const root = source.trie.length === 0 ? snapshot.root : snapshot.treeRoot(source.trie);
      const leaves = Math.max(1, Math.min(maxLeaves, CHUNK_LIMITS.leaves));
      return proveRange(db.persisted, root, range, { ...CHUNK_LIMITS, leaves });
    } catch (error) {
      if (error instanceof StateError)
        throw new SnapshotRefused(
          SnapshotErrorCode.StateNotHeld,
          `this node no longer holds state ${toHex(source.stateRoot)} whole`,
        );
      throw error;
    }
  }

  async importChunk(trieRoot: Uint8Array, isMeta: boolean, range: KeyRange, chunk: TrieChunk): Promise<ImportedChunk> {
    let verified: ReturnType<typeof verifyRange>;
    try {
      verified = verifyRange(this.deps.db.hasher, trieRoot, range, chunk, this.deps.db.hashMany);
    } catch (error) {
      // A chunk that does not prove its range is the BadChunk the service promises.
      if (error instanceof RangeProofError) throw new BadChunk(error.message, { cause: error });
      throw error;
    }
    const batch = this.deps.store.batch();
    for (const { hash, encoded } of verified.nodes) {
      batch.put(nodeStoreKey(hash), encoded);
      // Into the node cache too (content-addressed, so right even if the batch fails): the balance index is built
      // from the imported state by reading it back whole.
      this.deps.db.persisted.remember(hash, encoded);
    }
    if (verified.subtree) batch.put(heldWholeKey(verified.subtree), new Uint8Array(0));
    await batch.write();
    for (const hash of verified.wholeInner) this.heldWhole.add(cacheKey(hash));
    return {
      next: verified.halves,
      tries: isMeta ? verified.leaves.map((leaf) => ({ name: leaf.key, root: leaf.value })) : [],
      leaves: verified.leaves.length,
    };
  }

  holdsSubtree(hash: Uint8Array): boolean {
    const key = cacheKey(hash);
    if (this.heldWhole.has(key)) return true;
    const { store, db } = this.deps;
    if (equalBytes(hash, db.persisted.nil) || equalBytes(hash, db.emptyRoot()) || store.getSync(heldWholeKey(hash)))
      return true;
    const node = db.storedNode(hash);
    if (!node) return false;
    if (node.kind === 'leaf') return true;
    const held = this.holdsSubtree(node.left) && this.holdsSubtree(node.right);
    if (held) this.heldWhole.add(key);
    return held;
  }

  /** Whether a state's meta trie and every trie it names are stored whole. */
  private holdsState(root: Uint8Array): boolean {
    if (!this.holdsSubtree(root)) return false;
    for (const leaf of new Trie(this.deps.db.persisted, root).entries())
      if (!this.holdsSubtree(leaf.value)) return false;
    return true;
  }

  async adopt(blocks: { meta: BlockMeta; bytes: Uint8Array; txs: Uint8Array[] }[]): Promise<void> {
    const { store, db, chain } = this.deps;
    for (const { meta } of blocks)
      if (!this.holdsState(meta.stateRoot))
        throw new Error(`the state of block ${toHex(meta.id)} is not fully imported`);
    const batch = store.batch();
    const versions = db.appendVersions(
      batch,
      blocks.map(({ meta }) => meta.stateRoot),
    );
    const adopted = blocks.map(({ meta }, i) => ({ ...meta, stateVersion: versions[i]! }));
    putHistoryFloor(batch, adopted[0]!.height);
    // The held-whole marks serve a resumed import only; pruning would later make them untrue.
    for await (const [key] of store.entries({ prefix: HELD_WHOLE_PREFIX })) batch.del(key);
    this.heldWhole.clear();
    await chain.adoptBase(batch, adopted, blocks);
  }
}
