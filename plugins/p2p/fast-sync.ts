/**
 * Fast sync (docs/protocol.md § State snapshots; docs/operations.md § Sync modes): a node with an empty chain checks
 * the header chain of the peer with the most work up to that peer's stable height S (proof of work, difficulty,
 * timestamps, cumulative work — without transactions or state), fetches the states of the blocks F..S proven chunk
 * by chunk against their headers' state roots (F is the oldest block a transaction after S may reference), then
 * those blocks whole, and makes them the chain's base; chain sync then fetches and executes the blocks after S as
 * usual. A peer whose headers or chunks fail is banned and the work goes to others. The plan (F..S) is kept in the
 * store once the headers are checked, and imported subtrees stay marked whole, so a restart resumes at the state.
 */
import type { Core } from '../../core-native/ts/core.js';
import type { Logger } from '../../host/logger.js';
import { equalBytes, toHex } from '../../protocol/bytes.js';
import { STABLE_DEPTH, TX_VALIDITY_BLOCKS } from '../../protocol/chain-params.js';
import type { BlockMeta, ChainService } from '../../host/services/chain.js';
import type { FastSyncFigures } from '../../host/services/chain-info.js';
import type { SnapshotService } from '../../host/services/snapshots.js';
import type { KeyValueStore } from '../../host/storage/kv-store.js';
import { PENALTY } from './bans.js';
import type { Penalise } from './block-intake.js';
import { clearPlan, loadPlan, savePlan } from './fast-sync-plan.js';
import type { Peer } from './peer.js';
import { StateFetcher } from './state-fetcher.js';
import { MAX_BLOCKS_PER_REQUEST } from './wire/messages.js';

/** Header batches fetched ahead of the one being checked. */
const HEADER_WINDOW = 8;
/** Leaves per chunk asked for: the first state of the window whole, then the changes of the next ones. */
const FIRST_STATE_CHUNK_LEAVES = 1024;
const NEXT_STATE_CHUNK_LEAVES = 16;
/** Wait before trying again after a failed attempt, ms. */
const RETRY_MS = 500;

/** The phase (headers, state, blocks) and its progress, as GetInfo reports it. */
export type FastSyncStatus = FastSyncFigures;

export interface FastSyncDeps {
  chain: ChainService;
  snapshots: SnapshotService;
  store: KeyValueStore;
  core: Core;
  peers: () => Peer[];
  penalise: Penalise;
  logger: Logger;
}

export class FastSync {
  private active: boolean;
  private running = false;
  private fetcher: StateFetcher | undefined;
  private current: FastSyncStatus | undefined;
  private retry: NodeJS.Timeout | undefined;
  /** Peers that do not hold their chain from genesis (fast-synced themselves): no header chain from them. */
  private readonly noHistory = new WeakSet<Peer>();

  constructor(
    private readonly deps: FastSyncDeps,
    /** Smallest snapshot height worth a fast sync: a shorter chain is replayed from genesis. */
    private readonly minHeight: number,
    fullSync: boolean,
    /** Called once fast sync is over (done, or not wanted): chain sync takes over. */
    private readonly onDone: () => void,
  ) {
    const planned = loadPlan(deps.store) !== undefined;
    this.active = planned || (!fullSync && deps.chain.top.height === 0n);
  }

  /** Whether fast sync still has to run (chain sync waits until it is over). */
  get pending(): boolean {
    // A node that made blocks of its own meanwhile (it mines) has a chain: nothing to fast-sync onto.
    if (this.active && !this.running && this.deps.chain.top.height > 0n && !loadPlan(this.deps.store))
      this.active = false;
    return this.active;
  }

  status(): FastSyncStatus | undefined {
    return this.current && { ...this.current };
  }

  stop(): void {
    clearTimeout(this.retry);
    this.active = false;
  }

  /** Starts (or joins peers to) a fast sync when a peer can serve one; returns at once. */
  consider(): void {
    if (!this.active) return;
    if (this.running) return this.fetcher?.pump();
    if (!this.pending) return this.onDone();
    const plan = loadPlan(this.deps.store);
    const leader = this.bestPeer();
    if (!leader || leader.work <= this.deps.chain.top.cumulativeWork) return;
    if (!plan && BigInt(leader.height) - STABLE_DEPTH < BigInt(this.minHeight)) {
      this.deps.logger.info(`the chain is short (height ${leader.height}): replaying it instead of a fast sync`);
      return this.end();
    }
    this.running = true;
    this.run(leader, plan)
      .then(() => this.end())
      .catch((error: Error) => {
        this.deps.logger.info(`fast sync stopped: ${error.message}; trying again`);
        this.retry = setTimeout(() => this.consider(), RETRY_MS);
        this.retry.unref();
      })
      .finally(() => {
        this.running = false;
        this.fetcher = undefined;
      });
  }

  private end(): void {
    this.active = false;
    this.current = undefined;
    this.onDone();
  }

  private bestPeer(): Peer | undefined {
    let best: Peer | undefined;
    for (const peer of this.deps.peers())
      if (!this.noHistory.has(peer) && (!best || peer.work > best.work)) best = peer;
    return best;
  }

  /** Ready peers whose chain reaches `height`. */
  private holders(height: bigint): Peer[] {
    return this.deps.peers().filter((peer) => BigInt(peer.height) >= height);
  }

  private async run(leader: Peer, plan: BlockMeta[] | undefined): Promise<void> {
    const started = Date.now();
    let metas = plan;
    if (!metas) {
      metas = await this.checkHeaderChain(leader);
      await savePlan(this.deps.store, metas);
    } else {
      this.deps.logger.info(`fast sync: resuming at the state of blocks ${metas[0]!.height}..${metas.at(-1)!.height}`);
    }
    const top = metas[metas.length - 1]!;
    this.current = { phase: 'state', snapshot_height: Number(top.height), done: 0, total: metas.length, leaves: 0 };
    for (const meta of metas) {
      const fetcher = new StateFetcher(
        this.deps.snapshots,
        {
          topoheight: meta.height,
          stateRoot: meta.stateRoot,
          chunkLeaves: meta === metas[0] ? FIRST_STATE_CHUNK_LEAVES : NEXT_STATE_CHUNK_LEAVES,
        },
        () => this.holders(top.height),
        this.deps.penalise,
        () => (this.current!.leaves = leavesBefore + fetcher.leaves),
      );
      const leavesBefore = this.current.leaves;
      this.fetcher = fetcher;
      const fetchStarted = Date.now();
      await fetcher.run();
      this.current.done++;
      this.deps.logger.debug(
        `fast sync: state of height ${meta.height}, ${fetcher.leaves} leaves in ${fetcher.chunks} chunks, ${Date.now() - fetchStarted} ms`,
      );
    }
    this.fetcher = undefined;
    this.current = { ...this.current, phase: 'blocks', done: 0, total: metas.length };
    const blocks = await this.fetchBlocks(metas);
    await this.deps.snapshots.adopt(blocks);
    await clearPlan(this.deps.store);
    this.deps.logger.info(
      `fast sync done: state of height ${top.height} (${this.current.leaves} leaves) in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
        `the chain holds blocks from height ${metas[0]!.height}`,
    );
  }

  /** Checks the leader's header chain up to its stable height; returns the metadata of the blocks F..S. */
  private async checkHeaderChain(leader: Peer): Promise<BlockMeta[]> {
    const snapshotHeight = BigInt(leader.height) - STABLE_DEPTH;
    const first = snapshotHeight + 2n - TX_VALIDITY_BLOCKS;
    this.deps.logger.info(`fast sync from ${leader}: checking the header chain up to height ${snapshotHeight}`);
    const ids = await this.chainIds(leader, snapshotHeight);
    this.current = { phase: 'headers', snapshot_height: Number(snapshotHeight), done: 0, total: ids.length, leaves: 0 };
    const check = this.deps.snapshots.checkHeaders();
    const kept: BlockMeta[] = [];
    const batches: Uint8Array[][] = [];
    for (let i = 0; i < ids.length; i += MAX_BLOCKS_PER_REQUEST) batches.push(ids.slice(i, i + MAX_BLOCKS_PER_REQUEST));
    const fetching = new Map<number, Promise<{ peer: Peer; blocks: Uint8Array[] }>>();
    for (let b = 0; b < batches.length; b++) {
      for (let ahead = b; ahead < Math.min(batches.length, b + HEADER_WINDOW); ahead++) {
        if (fetching.has(ahead)) continue;
        const request = this.headerBatch(batches[ahead]!, ahead, snapshotHeight);
        request.catch(() => undefined);
        fetching.set(ahead, request);
      }
      const { peer, blocks } = await fetching.get(b)!;
      fetching.delete(b);
      blocks.forEach((bytes, i) => {
        let meta: BlockMeta;
        try {
          meta = check.next(bytes);
          if (!equalBytes(meta.id, batches[b]![i]!))
            throw new Error(`block ${toHex(meta.id)} is not the one asked for`);
        } catch (error) {
          const reason = `sent a header chain that fails its checks: ${(error as Error).message}`;
          this.deps.penalise(peer, PENALTY.invalidData, reason);
          throw new Error(`${peer} ${reason}`);
        }
        if (meta.height >= first) kept.push(meta);
        this.current!.done++;
      });
    }
    return kept;
  }

  /** Main-chain ids 1..`height` of the leader. */
  private async chainIds(leader: Peer, height: bigint): Promise<Uint8Array[]> {
    const genesis = this.deps.chain.metaAtTopo(0n)!.id;
    const ids: Uint8Array[] = [];
    while (BigInt(ids.length) < height) {
      const locator = ids.length > 0 ? [ids[ids.length - 1]!, genesis] : [genesis];
      const answer = await leader.request('getChain', { locator });
      if (answer.ids.length === 0 && answer.start === ids.length + 1) {
        this.noHistory.add(leader);
        throw new Error(`${leader} does not hold its chain from genesis`);
      }
      if (answer.start !== ids.length + 1 || answer.ids.length === 0) {
        this.deps.penalise(leader, PENALTY.misuse, `answered a header chain request with ids from ${answer.start}`);
        throw new Error(`${leader} does not list its chain`);
      }
      ids.push(...answer.ids.slice(0, Number(height) - ids.length));
    }
    return ids;
  }

  /** One batch of headers, from the peers holding them in turn; a short answer is completed by further requests. */
  private async headerBatch(
    ids: Uint8Array[],
    index: number,
    height: bigint,
  ): Promise<{ peer: Peer; blocks: Uint8Array[] }> {
    const blocks: Uint8Array[] = [];
    let peer: Peer | undefined;
    for (let attempt = 0; blocks.length < ids.length; attempt++) {
      const peers = this.holders(height).filter((holder) => !this.noHistory.has(holder));
      if (attempt > 3 * peers.length + 3 || peers.length === 0) throw new Error('no peer serves the header chain');
      const candidate = peers[(index + attempt) % peers.length]!;
      // A batch is checked against one sender, so that a failure names who to ban.
      if (peer && candidate !== peer) continue;
      try {
        const answer = await candidate.request('getHeaders', { ids: ids.slice(blocks.length) });
        if (answer.blocks.length === 0) {
          // It holds none of them (its chain starts later): no more header batches for it.
          if (blocks.length === 0) this.noHistory.add(candidate);
          continue;
        }
        peer = candidate;
        blocks.push(...answer.blocks.slice(0, ids.length - blocks.length));
      } catch {
        // Another peer gets the batch.
      }
    }
    return { peer: peer!, blocks };
  }

  /** The blocks F..S whole, with their transactions, checked against their ids. */
  private async fetchBlocks(metas: BlockMeta[]): Promise<{ meta: BlockMeta; bytes: Uint8Array; txs: Uint8Array[] }[]> {
    const top = metas[metas.length - 1]!.height;
    for (const peer of this.holders(top)) {
      try {
        const { blocks } = await peer.request('getBlocks', { ids: metas.map((meta) => meta.id) });
        if (blocks.length !== metas.length) continue;
        if (!blocks.every((body, i) => equalBytes(this.deps.core.sha3_256(body.block), metas[i]!.id))) {
          this.deps.penalise(peer, PENALTY.invalidData, 'sent blocks that are not the ones asked for');
          continue;
        }
        this.current!.done = metas.length;
        return blocks.map((body, i) => ({ meta: metas[i]!, bytes: body.block, txs: body.txs }));
      } catch {
        // The next peer may serve them.
      }
    }
    throw new Error(`no peer serves the blocks ${metas[0]!.height}..${top}`);
  }
}
