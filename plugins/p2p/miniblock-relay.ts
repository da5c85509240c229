/**
 * Ordinary miniblocks travel whole (48 bytes: smaller than an announcement would be), to every peer not known to have
 * one, as soon as one joins this node's pool — solved here or accepted from a peer. So the nine miniblocks of a block
 * can come from miners on different nodes. A miniblock that is invalid (bad proof of work, unknown miner key) costs its
 * sender ban points; one that is merely stale or already pooled does not.
 */
import { MiniblockRejected, type MiniblockPoolService } from '../../host/services/miniblocks.js';
import { PENALTY } from './bans.js';
import type { Peer } from './peer.js';
import type { Body } from './wire/messages.js';

export class MiniblockRelay {
  private readonly unsubscribe: () => void;

  constructor(
    private readonly pool: MiniblockPoolService,
    private readonly sha3: (data: Uint8Array) => Uint8Array,
    private readonly peers: () => Peer[],
    private readonly penalise: (peer: Peer, points: number, reason: string) => void,
  ) {
    this.unsubscribe = pool.onMiniblock((blob) => this.send(blob));
  }

  stop(): void {
    this.unsubscribe();
  }

  private send(blob: Uint8Array): void {
    const id = this.sha3(blob);
    for (const peer of this.peers()) {
      if (peer.knownMiniblocks.has(id)) continue;
      peer.knownMiniblocks.add(id);
      peer.send('miniblock', { blob });
    }
  }

  onMiniblock(peer: Peer, { blob }: Body<'miniblock'>): void {
    peer.knownMiniblocks.add(this.sha3(blob));
    try {
      // Accepted ones reach the pool's listeners, and so the other peers.
      this.pool.accept(blob);
    } catch (error) {
      if (!(error instanceof MiniblockRejected)) throw error;
      this.penalise(peer, PENALTY.invalidData, error.message);
    }
  }
}
