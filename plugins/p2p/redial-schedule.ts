/**
 * When an address whose dial failed may be dialled again. A configured peer, or one this node has completed a
 * handshake with, is worth coming back to quickly — it is most likely starting up, restarting, or behind a link that
 * is back: its retries follow a short exponential backoff, jittered so that nodes that lost each other together do
 * not all redial at once, and capped low. An address only heard of waits the long delay.
 */

export interface RedialPolicy {
  /** The first retry of a known address comes after about this long (±50 %), ms. */
  firstMs: number;
  /** The longest wait between retries of a known address (before jitter), ms. */
  capMs: number;
  /** The wait before an address only heard of is dialled again, ms. */
  unknownMs: number;
}

export const DEFAULT_REDIAL: RedialPolicy = { firstMs: 500, capMs: 2_000, unknownMs: 30_000 };

export class RedialSchedule {
  private readonly failures = new Map<string, { count: number; nextAt: number }>();

  constructor(
    private readonly policy: RedialPolicy = DEFAULT_REDIAL,
    private readonly random: () => number = Math.random,
  ) {}

  /** A dial to `address` failed; `known`: configured or once connected. Returns the ms until it may be retried. */
  failed(address: string, known: boolean, now: number): number {
    const count = (this.failures.get(address)?.count ?? 0) + 1;
    const { firstMs, capMs, unknownMs } = this.policy;
    const delay = known ? Math.min(capMs, firstMs * 2 ** (count - 1)) * (0.5 + this.random()) : unknownMs;
    this.failures.set(address, { count, nextAt: now + delay });
    return delay;
  }

  /** A connection to `address` completed its handshake: its next failure starts the backoff over. */
  succeeded(address: string): void {
    this.failures.delete(address);
  }

  /** Whether `address` may be dialled now. */
  due(address: string, now: number): boolean {
    return (this.failures.get(address)?.nextAt ?? 0) <= now;
  }
}
