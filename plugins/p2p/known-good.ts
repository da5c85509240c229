/**
 * The addresses of peers this node completed a handshake with since it started. A link that broke (a partition, a
 * restart) is most likely to come back at the same address, so these stay dialable on the short redial backoff even
 * after their failures dropped them from the peer book; an address gone for longer than `keepMs` is let go.
 */

/** How long an address that stopped answering is still redialled, ms. */
export const KNOWN_GOOD_KEEP_MS = 30 * 60_000;
/**
 * Addresses kept at most, the least recently seen going first: a peer names its own listening address, so peers that
 * come and go under ever new ones must not grow the list (nor the dialling) without bound.
 */
export const KNOWN_GOOD_MAX = 256;

export class KnownGoodPeers {
  /** Address → when the node was last connected to it (the handshake, or the loss of the peer), ms. */
  private readonly lastSeen = new Map<string, number>();

  constructor(
    private readonly keepMs = KNOWN_GOOD_KEEP_MS,
    private readonly max = KNOWN_GOOD_MAX,
  ) {}

  /** A handshake with the peer at `address` completed, or its connection ended, at `now`. */
  seen(address: string, now: number): void {
    this.lastSeen.delete(address);
    this.lastSeen.set(address, now);
    if (this.lastSeen.size > this.max) this.lastSeen.delete(this.lastSeen.keys().next().value!);
  }

  has(address: string): boolean {
    return this.lastSeen.has(address);
  }

  /** Addresses still worth redialling, the most recently seen first; older ones are forgotten. */
  current(now: number): string[] {
    for (const [address, at] of this.lastSeen) if (now - at > this.keepMs) this.lastSeen.delete(address);
    return [...this.lastSeen.keys()].reverse();
  }
}
