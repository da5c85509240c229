/**
 * New blocks on the `blocks` gossip topic: a block that joins this node's main chain (mined here or fetched) is
 * published whole with the bodies of its transactions, unless it came by gossip (gossipsub forwards that one itself)
 * or the message would exceed MAX_GOSSIP_BLOCK_BYTES (block-relay.ts announces those by newBlock). The topic's check
 * runs the block through the chain before gossipsub forwards it: a block the chain takes is accepted; one already
 * known, stale or from a clock far ahead is ignored; an invalid one is rejected and costs the forwarder ban points;
 * an orphan is kept (with the forwarder as its source) and ignored, and a sync from the forwarder fetches its branch.
 */
import type { Logger } from '../../host/logger.js';
import { decodeBlock } from '../../protocol/block.js';
import { toHex } from '../../protocol/bytes.js';
import type { BlockMeta, ChainService } from '../../host/services/chain.js';
import type { Core } from '../../core-native/ts/core.js';
import { PENALTY } from './bans.js';
import { BlockRefused, type BlockIntake, type Penalise } from './block-intake.js';
import type { BlockTransactions } from './block-transactions.js';
import type { ChainSync } from './chain-sync.js';
import { Verdict, type Gossip } from './gossip.js';
import type { Peer } from './peer.js';
import { decodeBlockBody, encodeBlockBody } from './wire/codec.js';
import { ProtocolError } from './wire/shape.js';

const TOPIC = 'blocks';
/** Largest blocks topic message; gossipsub's inbound limit (transport.ts) leaves room for its own framing. */
export const MAX_GOSSIP_BLOCK_BYTES = 4 * 1024 * 1024;

export interface BlockGossipDeps {
  chain: ChainService;
  core: Core;
  intake: BlockIntake;
  transactions: BlockTransactions;
  sync: ChainSync;
  gossip: Gossip;
  /** Our peer behind a gossip forwarder's peer id, once its handshake is done. */
  peerOf: (peerId: string) => Peer | undefined;
  penalise: Penalise;
  logger: Logger;
}

export class BlockGossip {
  /** Blocks (hex id) being added from the topic: gossipsub forwards them, they are not published again. */
  private readonly arriving = new Set<string>();

  constructor(private readonly deps: BlockGossipDeps) {
    deps.gossip.subscribe(TOPIC, (data, from) => this.check(data, from));
  }

  /**
   * Spreads a block that joined the main chain. True when the topic carries it (published now, or arriving by
   * gossip); false when it is too large or this node lacks a body, and only a newBlock announcement tells peers.
   */
  spread(meta: BlockMeta): boolean {
    if (this.arriving.has(toHex(meta.id))) return true;
    const bytes = this.deps.chain.blockBytes(meta.id);
    const txs = bytes && this.deps.transactions.bodiesOf(decodeBlock(bytes));
    if (!bytes || !txs) return false;
    const size = bytes.length + txs.reduce((n, tx) => n + tx.length, 0);
    // The CBOR around the bodies is a few bytes each; checked again on the encoding once it is small enough.
    if (size > MAX_GOSSIP_BLOCK_BYTES) return false;
    const message = encodeBlockBody({ block: bytes, txs });
    if (message.length > MAX_GOSSIP_BLOCK_BYTES) return false;
    this.deps.gossip.publish(TOPIC, message);
    return true;
  }

  /** Whether the topic surely carries a block to this peer: it is in this node's mesh. */
  reaches(peer: Peer): boolean {
    return this.deps.gossip.inMesh(TOPIC, peer.peerId);
  }

  private async check(data: Uint8Array, from: string): Promise<Verdict> {
    const { chain, core, intake, sync, peerOf, penalise, logger } = this.deps;
    // Gossip from a connection whose handshake is not done (or already closed) cannot be judged nor blamed.
    const peer = peerOf(from);
    if (!peer) return Verdict.Ignore;
    if (data.length > MAX_GOSSIP_BLOCK_BYTES) {
      penalise(peer, PENALTY.invalidData, `gossiped a block message of ${data.length} bytes`);
      return Verdict.Reject;
    }
    let body;
    try {
      body = decodeBlockBody(data);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      penalise(peer, PENALTY.invalidData, error.message);
      return Verdict.Reject;
    }
    const id = core.sha3_256(body.block);
    const key = toHex(id);
    const known = chain.meta(id);
    if (known || this.arriving.has(key)) {
      peer.knownBlocks.add(id);
      if (known) peer.reached(Number(known.height), known.cumulativeWork);
      return Verdict.Ignore;
    }
    this.arriving.add(key);
    try {
      const result = await intake.add(peer, id, body);
      logger.debug(`block ${key} came by gossip from ${peer}: ${result.status}`);
      const added = chain.meta(id);
      if (added) peer.reached(Number(added.height), added.cumulativeWork);
      if (result.status === 'main' || result.status === 'side') return Verdict.Accept;
      if (result.status === 'orphan') {
        peer.reached(Number(decodeBlock(body.block).height));
        sync.chase(peer);
      }
      return Verdict.Ignore;
    } catch (error) {
      if (error instanceof BlockRefused) return Verdict.Reject;
      logger.debug(`gossiped block ${key} from ${peer}: ${(error as Error).message}`);
      return Verdict.Ignore;
    } finally {
      this.arriving.delete(key);
    }
  }
}
