/**
 * Chain sync: catching up with the peer that has the most work. The node sends that peer a locator (its main-chain
 * ids, dense near the top and sparse towards genesis); the peer answers with its main-chain ids after the first
 * locator id it shares. The node fetches the blocks it lacks in batches from every peer that claims more work than
 * this node (block-fetcher.ts: a stalled batch goes to another peer), and adds them in order through the chain, which
 * validates each one and reorganises when the peer's branch carries more work. One sync runs at a time.
 */
import type { Logger } from '../../host/logger.js';
import { equalBytes, toHex } from '../../protocol/bytes.js';
import type { ChainService } from '../../host/services/chain.js';
import { PENALTY } from './bans.js';
import { BlockFetcher } from './block-fetcher.js';
import { BlockRefused, type BlockIntake, type Penalise } from './block-intake.js';
import type { Peer } from './peer.js';
import type { SyncProgress } from './sync-progress.js';
import { MAX_BLOCKS_PER_REQUEST, MAX_CHAIN_IDS, MAX_LOCATOR_IDS, type Body } from './wire/messages.js';

/** Blocks asked for per request while syncing. */
const SYNC_BATCH = Math.min(64, MAX_BLOCKS_PER_REQUEST);
/** Batches fetched ahead of the next one to apply: at most this many answers (each under a frame) are held. */
const SYNC_WINDOW = 6;

export class ChainSync {
  private running = false;
  /** A peer's work when a sync from it last failed or brought nothing: it is not tried again until it claims more. */
  private readonly fruitless = new WeakMap<Peer, bigint>();
  /** The running fetch, told when peers come so that they join in. */
  private fetcher: BlockFetcher | undefined;

  constructor(
    private readonly chain: ChainService,
    private readonly intake: BlockIntake,
    private readonly peers: () => Peer[],
    private readonly logger: Logger,
    private readonly progress: SyncProgress,
    private readonly penalise: Penalise,
    /** True while fast sync lays the chain's base: no sync from genesis meanwhile. */
    private readonly held: () => boolean = () => false,
  ) {}

  get busy(): boolean {
    return this.running;
  }

  /** Starts a sync if some peer has more work than this node (the call returns at once). */
  consider(): void {
    if (this.held()) return;
    if (this.running) return this.fetcher?.pump();
    const best = this.bestPeer();
    if (!best) return;
    this.running = true;
    const claimed = best.work;
    this.syncFrom(best)
      .catch((error: Error) => {
        this.fruitless.set(best, claimed);
        if (!(error instanceof BlockRefused)) this.logger.info(`sync from ${best} stopped: ${error.message}`);
      })
      .finally(() => {
        this.running = false;
        this.progress.end(Number(this.chain.top.height), Math.max(0, ...this.peers().map((peer) => peer.height)));
        // Someone may have announced more work meanwhile.
        setImmediate(() => this.consider());
      });
  }

  /**
   * A peer forwarded a block whose parent this node lacks: it holds that branch, whatever work it last claimed. It
   * is taken to claim a little more than this node (its next hello or announcement says how much) so that a sync
   * from it fetches the branch; a sync that brings nothing marks the claim fruitless as usual.
   */
  chase(peer: Peer): void {
    if (peer.work <= this.chain.top.cumulativeWork) peer.work = this.chain.top.cumulativeWork + 1n;
    this.consider();
  }

  /** The ready peer with the most work, when that is more than this node's. */
  private bestPeer(): Peer | undefined {
    let best: Peer | undefined;
    for (const peer of this.peers()) {
      if (peer.work <= this.chain.top.cumulativeWork || this.fruitless.get(peer) === peer.work) continue;
      if (!best || peer.work > best.work) best = peer;
    }
    return best;
  }

  /** Answers a getChain request. */
  serve(peer: Peer, request: Body<'getChain'>): void {
    let start = 1n;
    for (const id of request.locator) {
      const meta = this.chain.meta(id);
      if (meta && equalBytes(this.chain.metaAtTopo(meta.height)!.id, id)) {
        start = meta.height + 1n;
        break;
      }
    }
    const ids: Uint8Array[] = [];
    // A fast-synced node holds no blocks below its history floor: it lists none from there.
    for (let height = start; height <= this.chain.top.height && ids.length < MAX_CHAIN_IDS; height++) {
      const meta = this.chain.metaAtTopo(height);
      if (!meta) break;
      ids.push(meta.id);
    }
    peer.send('chain', { request: request.request, start: Number(start), ids });
  }

  /** Main-chain ids at the top, then 1, 2, 4, 8, ... blocks below it, ending with genesis. */
  private locator(): Uint8Array[] {
    const top = this.chain.top.height;
    const ids: Uint8Array[] = [];
    for (let step = 1n, height = top; ids.length < MAX_LOCATOR_IDS - 1; height -= step, step *= 2n) {
      if (height <= 0n) break;
      const meta = this.chain.metaAtTopo(height);
      if (meta) ids.push(meta.id);
    }
    ids.push(this.chain.metaAtTopo(0n)!.id);
    return ids;
  }

  private async syncFrom(peer: Peer): Promise<void> {
    const startHeight = this.chain.top.height;
    const started = Date.now();
    let added = 0;
    this.logger.info(`syncing from ${peer}: this node at height ${startHeight}, the peer at ${peer.height}`);
    this.progress.begin(Number(startHeight), peer.height);
    while (peer.work > this.chain.top.cumulativeWork && !peer.closed) {
      const locator = this.locator();
      const { start, ids } = await peer.request('getChain', { locator });
      this.checkChain(peer, locator, start, ids);
      const missing = ids.filter((id) => !this.chain.meta(id));
      if (missing.length === 0) break;
      this.fetcher = new BlockFetcher(missing, () => this.helpers(), {
        batch: SYNC_BATCH,
        window: SYNC_WINDOW,
        dropped: (helper, reason, stalled) => {
          this.logger.info(`sync: ${reason}; its blocks go to other peers`);
          if (stalled) this.penalise(helper, PENALTY.stalled, reason);
        },
      });
      try {
        for await (const { peer: sender, ids: batch, blocks } of this.fetcher.batches()) {
          for (const [i, body] of blocks.entries()) {
            const result = await this.intake.add(sender, batch[i]!, body);
            if (result.status === 'below-stable')
              throw new Error(`${peer} is on a fork below this node's stable height ${this.chain.stableHeight()}`);
            if (result.status === 'too-early')
              throw new Error(`${sender} sent a block timestamped well ahead of this node's clock`);
            if (result.status !== 'known') added++;
          }
          this.progress.advance(Number(this.chain.top.height), peer.height);
        }
      } finally {
        this.fetcher = undefined;
      }
    }
    if (added === 0) this.fruitless.set(peer, peer.work);
    this.logger.info(
      `sync from ${peer} done: ${added} blocks in ${((Date.now() - started) / 1000).toFixed(1)} s, height ${startHeight} → ${this.chain.top.height}`,
    );
  }

  /** Peers that claim more work than this node: each should hold the blocks it lacks. */
  private helpers(): Peer[] {
    return this.peers().filter((peer) => peer.work > this.chain.top.cumulativeWork);
  }

  /** A chain answer must continue from one of the locator's ids and list each id once. */
  private checkChain(peer: Peer, locator: Uint8Array[], start: number, ids: Uint8Array[]): void {
    const continues = locator.some((id) => this.chain.meta(id)!.height === BigInt(start) - 1n);
    const distinct = new Set(ids.map(toHex)).size === ids.length;
    if (continues && distinct) return;
    const reason = continues
      ? 'listed a block twice in its chain'
      : `answered a locator with a chain from height ${start}`;
    this.penalise(peer, PENALTY.misuse, reason);
    throw new Error(`${peer} ${reason}`);
  }
}
