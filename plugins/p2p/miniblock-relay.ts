/**
 * Ordinary miniblocks travel whole (48 bytes) on the `miniblocks` gossip topic as soon as one joins this node's pool
 * — solved here, or accepted from the topic, which gossipsub then forwards itself. So the nine miniblocks of a block
 * can come from miners on different nodes. The topic check is the pool's own: a miniblock that is invalid (bad proof
 * of work, unknown miner key, malformed) is rejected and costs its forwarder ban points; one that is merely stale or
 * already pooled is ignored without blame. A miniblock the pool takes builds on this node's top, so its forwarder has
 * the chain up to the height below it. Each miniblock that joins the pool is logged (debug), so that its arrival at
 * every node of a network can be timed from the nodes' logs.
 */
import type { Logger } from '../../host/logger.js';
import { toHex } from '../../protocol/bytes.js';
import { MiniblockRejected, type MiniblockPoolService } from '../../host/services/miniblocks.js';
import { decodeMiniblock } from '../../protocol/miniblock.js';
import { PENALTY } from './bans.js';
import type { Penalise } from './block-intake.js';
import { Verdict, type Gossip } from './gossip.js';
import type { Peer } from './peer.js';

const TOPIC = 'miniblocks';

export class MiniblockRelay {
  private readonly unsubscribe: () => void;
  /** Set while a gossiped miniblock enters the pool: gossipsub forwards that one, it is not published again. */
  private fromGossip = false;

  constructor(
    private readonly pool: MiniblockPoolService,
    gossip: Gossip,
    /** Our peer behind a gossip forwarder's peer id, once its handshake is done. */
    private readonly peerOf: (peerId: string) => Peer | undefined,
    private readonly penalise: Penalise,
    logger: Logger,
  ) {
    gossip.subscribe(TOPIC, (blob, from) => this.check(blob, from));
    this.unsubscribe = pool.onMiniblock((blob) => {
      logger.debug(`miniblock ${toHex(blob)} joined the pool${this.fromGossip ? ' from gossip' : ''}`);
      if (!this.fromGossip) gossip.publish(TOPIC, blob);
    });
  }

  stop(): void {
    this.unsubscribe();
  }

  private check(blob: Uint8Array, from: string): Verdict {
    this.fromGossip = true;
    const peer = this.peerOf(from);
    try {
      if (!this.pool.accept(blob)) return Verdict.Ignore;
      peer?.reached(Number(decodeMiniblock(blob).height) - 1);
      return Verdict.Accept;
    } catch (error) {
      if (!(error instanceof MiniblockRejected)) throw error;
      if (peer) this.penalise(peer, PENALTY.invalidData, error.message);
      return Verdict.Reject;
    } finally {
      this.fromGossip = false;
    }
  }
}
