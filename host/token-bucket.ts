/**
 * A token bucket: `perSecond` tokens flow in, at most `burst` are kept, and a request takes as many as it costs. The
 * one rate limiter of the node (a peer's messages and bytes, a peer's stem transactions, a miner's submissions).
 */
export interface Rate {
  /** Refill per second. */
  perSecond: number;
  /** Bucket size: how much may come at once after a quiet spell. */
  burst: number;
}

export class TokenBucket {
  private tokens: number;
  private at: number;

  /** Starts full at `now` (ms). */
  constructor(
    private readonly rate: Rate,
    now: number,
  ) {
    this.tokens = rate.burst;
    this.at = now;
  }

  /** Refills for the time passed, then takes `amount` if there is that much; false (nothing taken) if not. */
  take(amount: number, now: number): boolean {
    this.tokens = Math.min(this.rate.burst, this.tokens + ((now - this.at) / 1000) * this.rate.perSecond);
    this.at = now;
    if (amount > this.tokens) return false;
    this.tokens -= amount;
    return true;
  }
}
