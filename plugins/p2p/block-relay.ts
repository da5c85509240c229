/**
 * Block propagation. A block that joins this node's main chain travels on the blocks gossip topic (block-gossip.ts);
 * it is announced by id (with its height and cumulative work) to the peers outside this node's mesh for that topic — all of them
 * when the block is too large for gossip — if not known to have it, and never twice to one peer. An
 * announced block this node lacks is fetched from the announcer; one that does not connect to the chain (or is more
 * than one block ahead) starts a sync instead.
 */
import type { Logger } from '../../host/logger.js';
import { decodeBlock } from '../../protocol/block.js';
import { toHex } from '../../protocol/bytes.js';
import type { BlockMeta, ChainService } from '../../host/services/chain.js';
import { PENALTY } from './bans.js';
import { BlockRefused, type BlockIntake, type BlockBody, type Penalise } from './block-intake.js';
import type { BlockGossip } from './block-gossip.js';
import type { BlockTransactions } from './block-transactions.js';
import type { ChainSync } from './chain-sync.js';
import { InFlight } from './in-flight.js';
import type { Peer } from './peer.js';
import { DATA_BODY_BUDGET, type Body } from './wire/messages.js';

/** Announced blocks fetched from one peer at once; more announcements wait for sync or another announcer. */
export const MAX_BLOCK_FETCHES_PER_PEER = 8;

export class BlockRelay {
  private readonly fetching = new Set<string>();
  private readonly open = new InFlight(MAX_BLOCK_FETCHES_PER_PEER);
  readonly stop: () => void;

  constructor(
    private readonly chain: ChainService,
    private readonly intake: BlockIntake,
    private readonly transactions: BlockTransactions,
    private readonly sync: ChainSync,
    private readonly gossip: BlockGossip,
    private readonly peers: () => Peer[],
    private readonly penalise: Penalise,
    private readonly logger: Logger,
  ) {
    this.stop = chain.onBlock((meta, outcome) => {
      if (outcome.status === 'main') this.announce(meta);
    });
  }

  /**
   * Tells a peer that just completed its handshake of our top: a block that joined the chain after our hello went
   * out, while the peer was not ready yet, would otherwise reach it only with the next one.
   */
  greet(peer: Peer): void {
    this.announceTo(peer, this.chain.top);
  }

  private announce(meta: BlockMeta): void {
    const gossiped = this.gossip.spread(meta);
    for (const peer of this.peers()) if (!gossiped || !this.gossip.reaches(peer)) this.announceTo(peer, meta);
  }

  private announceTo(peer: Peer, meta: BlockMeta): void {
    if (peer.knownBlocks.has(meta.id)) return;
    peer.knownBlocks.add(meta.id);
    peer.send('newBlock', { id: meta.id, height: Number(meta.height), work: meta.cumulativeWork });
  }

  async onNewBlock(peer: Peer, { id, height, work }: Body<'newBlock'>): Promise<void> {
    peer.knownBlocks.add(id);
    if (work > peer.work) {
      peer.work = work;
      peer.height = height;
    }
    const key = toHex(id);
    if (this.chain.meta(id) || this.fetching.has(key)) return;
    if (this.sync.busy || BigInt(height) > this.chain.top.height + 1n) return this.sync.consider();
    if (!this.open.begin(peer)) return;
    this.fetching.add(key);
    try {
      const { blocks } = await peer.request('getBlocks', { ids: [id] });
      if (blocks.length !== 1)
        return this.penalise(peer, PENALTY.misuse, `announced block ${key} but did not serve it`);
      const result = await this.intake.add(peer, id, blocks[0]!);
      if (result.status === 'orphan') this.sync.consider();
    } catch (error) {
      if (!(error instanceof BlockRefused))
        this.logger.debug(`fetching block ${key} from ${peer}: ${(error as Error).message}`);
    } finally {
      this.fetching.delete(key);
      this.open.end(peer);
    }
  }

  /** Answers a getBlocks request with the blocks this node has, in order, stopping before the frame grows too big. */
  serve(peer: Peer, request: Body<'getBlocks'>): void {
    const blocks: BlockBody[] = [];
    let size = 0;
    for (const id of request.ids) {
      const bytes = this.chain.blockBytes(id);
      if (!bytes) break;
      const txs = this.transactions.bodiesOf(decodeBlock(bytes));
      if (!txs) break;
      size += bytes.length + txs.reduce((n, tx) => n + tx.length, 0);
      if (blocks.length > 0 && size > DATA_BODY_BUDGET) break;
      blocks.push({ block: bytes, txs });
    }
    peer.send('blocks', { request: request.request, blocks });
  }
}
