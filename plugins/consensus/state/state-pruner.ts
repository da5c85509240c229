/**
 * Pruning the versioned state: drops the version records below a version, then deletes every stored node that no
 * remaining version reaches (mark and sweep). Roots never change: a node is deleted only when it is unreachable.
 *
 * Marking walks the newest kept version whole, and each older one only where it differs from the version walked
 * before it (an identical subtree was marked already), so a cycle reads about one state plus the changes of the kept
 * versions. The marks of one pass cover a range of node hashes (a partition of the first byte); when the marks
 * would outgrow the memory budget the cycle restarts with twice as many passes, so memory stays bounded on any state.
 *
 * Crash safety: every write is one atomic batch that removes only version records below the kept version,
 * unreachable nodes or the held-whole marks of unreachable subtrees, so a store killed at any point holds every kept version whole; the next cycle sweeps what is left.
 * Nodes written by commits while a cycle runs are never swept by it (they were not there when marking started).
 */
import { UmbraError } from '../../../core-native/ts/errors.js';
import { equalBytes } from '../../../protocol/bytes.js';
import type { WriteBatch } from '../../../host/storage/kv-store.js';
import { PruningErrorCode, PruningInterrupted } from '../pruning-errors.js';
import { StateError, StateErrorCode, StateSnapshot, type StateDb } from './state-db.js';
import { cacheKey } from '../../../protocol/state/trie-node.js';

/** Runs a write so that no block is being stored meanwhile (the chain's queue); tests may run it at once. */
export type Exclusive = (write: () => Promise<void>) => Promise<void>;

export interface PruneOptions {
  /** Most node hashes marked at once (about 100 bytes of memory each). */
  markBudget?: number;
  /** Deletions per write batch. */
  batchSize?: number;
  /** Called between slices of work, e.g. to let the event loop run (and to stop a cycle early by throwing). */
  pause?: () => Promise<void>;
}

export interface PruneReport {
  versionsDropped: number;
  nodesDeleted: number;
  /** Hash partitions the marking needed (1 when every mark fit the budget at once). */
  passes: number;
}

const DEFAULT_MARK_BUDGET = 1_000_000;
const DEFAULT_BATCH = 2_000;
const WORK_SLICE = 5_000;

/** One subtree to mark: its root, a subtree of an already-marked version at the same place, and the trie level. */
interface Frame {
  hash: Uint8Array;
  reference: Uint8Array | undefined;
  meta: boolean;
}

export class StatePruner {
  private readonly markBudget: number;
  private readonly batchSize: number;
  private readonly pause: () => Promise<void>;
  private passes = 1;

  constructor(
    private readonly db: StateDb,
    options: PruneOptions = {},
  ) {
    this.markBudget = options.markBudget ?? DEFAULT_MARK_BUDGET;
    this.batchSize = options.batchSize ?? DEFAULT_BATCH;
    this.pause = options.pause ?? (() => new Promise((resolve) => setImmediate(resolve)));
  }

  /** Drops every version below `keepFrom` and deletes the nodes only they reached. */
  async prune(keepFrom: bigint, exclusive: Exclusive): Promise<PruneReport> {
    const created = new Set<string>();
    const watcher = (key: string): void => void created.add(key);
    // Added while no block is being stored, so every node is either written already or seen by the watcher.
    await exclusive(async () => void this.db.creationWatchers.add(watcher));
    try {
      const versionsDropped = await this.dropVersions(keepFrom, exclusive);
      const kept: { version: bigint; root: Uint8Array }[] = [];
      for await (const record of this.db.versions({ from: keepFrom })) kept.push(record);
      kept.reverse();
      for (;;) {
        try {
          let nodesDeleted = 0;
          for (let pass = 0; pass < this.passes; pass++) {
            const first = (256 / this.passes) * pass;
            const end = first + 256 / this.passes;
            const marks = await this.mark(kept, first, end);
            nodesDeleted += await this.sweep(marks, created, first, end, exclusive);
          }
          return { versionsDropped, nodesDeleted, passes: this.passes };
        } catch (error) {
          if (!UmbraError.is(error, PruningErrorCode.MarksOverBudget) || this.passes >= 256) throw error;
          this.passes *= 2;
        }
      }
    } finally {
      this.db.creationWatchers.delete(watcher);
    }
  }

  private async dropVersions(keepFrom: bigint, exclusive: Exclusive): Promise<number> {
    const db = this.db;
    async function* dropped(): AsyncIterable<bigint> {
      for await (const { version } of db.versions({ below: keepFrom })) yield version;
    }
    return this.deleteInBatches(dropped(), (batch, version) => db.dropVersion(batch, version), exclusive);
  }

  /** The keys (cacheKey) of every node with a first hash byte in [first, end) that a kept version reaches. */
  private async mark(kept: { version: bigint; root: Uint8Array }[], first: number, end: number): Promise<Set<string>> {
    const marks = new Set<string>();
    const nil = this.db.persisted.nil;
    let work = 0;
    let previous: Uint8Array | undefined;
    for (const { root } of kept) {
      const referenceState = previous && new StateSnapshot(this.db.persisted, -1n, previous);
      const stack: Frame[] = [{ hash: root, reference: previous, meta: true }];
      while (stack.length > 0) {
        const { hash, reference, meta } = stack.pop()!;
        if (equalBytes(hash, nil) || (reference && equalBytes(hash, reference))) continue;
        if (hash[0]! >= first && hash[0]! < end) {
          marks.add(cacheKey(hash));
          if (marks.size > this.markBudget)
            throw new PruningInterrupted(
              PruningErrorCode.MarksOverBudget,
              `one pass would mark over ${this.markBudget} nodes`,
            );
        }
        const node = this.db.storedNode(hash);
        if (!node)
          throw new StateError(
            StateErrorCode.NodeMissing,
            `a kept state version reaches node ${Buffer.from(hash).toString('hex')}, which is missing`,
          );
        const referenceNode = reference && !equalBytes(reference, nil) ? this.db.storedNode(reference) : undefined;
        if (node.kind === 'inner') {
          const sameKind = referenceNode?.kind === 'inner' ? referenceNode : undefined;
          stack.push({ hash: node.right, reference: sameKind?.right, meta });
          stack.push({ hash: node.left, reference: sameKind?.left, meta });
        } else if (meta) {
          // A leaf of the meta trie names a trie and holds its root: mark that trie against the same trie before.
          stack.push({ hash: node.value, reference: referenceState?.treeRoot(node.key), meta: false });
        }
        if (++work % WORK_SLICE === 0) await this.pause();
      }
      previous = root;
    }
    return marks;
  }

  /** Deletes the unmarked nodes of the partition, and the held-whole marks of the subtrees they were the roots of. */
  private async sweep(
    marks: Set<string>,
    created: Set<string>,
    first: number,
    end: number,
    exclusive: Exclusive,
  ): Promise<number> {
    const unmarked = async function* (hashes: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
      for await (const hash of hashes) if (!marks.has(cacheKey(hash))) yield Uint8Array.from(hash);
    };
    // Checked at the write: a node a block wrote since marking began stays.
    const unlessCreated =
      (remove: (batch: WriteBatch, hash: Uint8Array) => void) =>
      (batch: WriteBatch, hash: Uint8Array): void => {
        if (!created.has(cacheKey(hash))) remove(batch, hash);
      };
    const db = this.db;
    const nodesDeleted = await this.deleteInBatches(
      unmarked(db.nodeHashes(first, end)),
      unlessCreated((batch, hash) => db.deleteNode(batch, hash)),
      exclusive,
    );
    await this.deleteInBatches(
      unmarked(db.heldWholeHashes(first, end)),
      unlessCreated((batch, hash) => db.deleteHeldWholeMark(batch, hash)),
      exclusive,
    );
    return nodesDeleted;
  }

  /** Deletes in batches of `batchSize`, each written between two stored blocks; returns the deletions written. */
  private async deleteInBatches<T>(
    items: AsyncIterable<T>,
    remove: (batch: WriteBatch, item: T) => void,
    exclusive: Exclusive,
  ): Promise<number> {
    let written = 0;
    let pending: T[] = [];
    const flush = async (): Promise<void> => {
      const chunk = pending;
      pending = [];
      await exclusive(async () => {
        const batch = this.db.store.batch();
        for (const item of chunk) remove(batch, item);
        written += batch.length;
        await batch.write();
      });
      await this.pause();
    };
    for await (const item of items) {
      pending.push(item);
      if (pending.length >= this.batchSize) await flush();
    }
    if (pending.length > 0) await flush();
    return written;
  }
}
