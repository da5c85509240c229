/**
 * A node without peers cannot sync nor relay, and nothing else says so: after a spell with no peer this warns (once,
 * then again every ten spells while it lasts), so that an operator sees how to give the node peers.
 */
export class NoPeerWarning {
  private lastPeerAt = Date.now();
  private warnedAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** `warn` gets how long the node has been without a peer, ms. */
  constructor(
    private readonly peerCount: () => number,
    private readonly afterMs: number,
    private readonly warn: (aloneMs: number) => void,
  ) {}

  start(): void {
    this.lastPeerAt = Date.now();
    this.timer = setInterval(() => this.check(), Math.max(10, this.afterMs / 4)).unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private check(): void {
    const now = Date.now();
    if (this.peerCount() > 0) {
      this.lastPeerAt = now;
      this.warnedAt = undefined;
      return;
    }
    if (now - this.lastPeerAt < this.afterMs) return;
    if (this.warnedAt !== undefined && now - this.warnedAt < 10 * this.afterMs) return;
    this.warnedAt = now;
    this.warn(now - this.lastPeerAt);
  }
}
