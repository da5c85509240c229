/**
 * Ordinary miniblocks travel whole (48 bytes) on the `miniblocks` gossip topic as soon as one joins this node's pool
 * — solved here, or accepted from the topic, which gossipsub then forwards itself. So the nine miniblocks of a block
 * can come from miners on different nodes. The topic check is the pool's own: a miniblock that is invalid (bad proof
 * of work, unknown miner key, malformed) is rejected and costs its forwarder ban points; one that is merely stale or
 * already pooled is ignored without blame.
 */
import { MiniblockRejected, type MiniblockPoolService } from '../../host/services/miniblocks.js';
import { PENALTY } from './bans.js';
import { Verdict, type Gossip } from './gossip.js';

const TOPIC = 'miniblocks';

export class MiniblockRelay {
  private readonly unsubscribe: () => void;
  /** Set while a gossiped miniblock enters the pool: gossipsub forwards that one, it is not published again. */
  private fromGossip = false;

  constructor(
    private readonly pool: MiniblockPoolService,
    gossip: Gossip,
    private readonly penalise: (peerId: string, points: number, reason: string) => void,
  ) {
    gossip.subscribe(TOPIC, (blob, from) => this.check(blob, from));
    this.unsubscribe = pool.onMiniblock((blob) => {
      if (!this.fromGossip) gossip.publish(TOPIC, blob);
    });
  }

  stop(): void {
    this.unsubscribe();
  }

  private check(blob: Uint8Array, from: string): Verdict {
    this.fromGossip = true;
    try {
      return this.pool.accept(blob) ? Verdict.Accept : Verdict.Ignore;
    } catch (error) {
      if (!(error instanceof MiniblockRejected)) throw error;
      this.penalise(from, PENALTY.invalidData, error.message);
      return Verdict.Reject;
    } finally {
      this.fromGossip = false;
    }
  }
}
