/**
 * Requests this node has open with each peer for one purpose, capped, so that a peer's announcements cannot make the
 * node open (and hold state for) any number of them; an announcement past the cap is let go.
 */
import type { Peer } from './peer.js';

export class InFlight {
  private readonly counts = new WeakMap<Peer, number>();

  constructor(readonly max: number) {}

  /** Counts a new request to `peer`; false when the peer already has `max` open. */
  begin(peer: Peer): boolean {
    const open = this.counts.get(peer) ?? 0;
    if (open >= this.max) return false;
    this.counts.set(peer, open + 1);
    return true;
  }

  end(peer: Peer): void {
    this.counts.set(peer, Math.max(0, (this.counts.get(peer) ?? 1) - 1));
  }
}
