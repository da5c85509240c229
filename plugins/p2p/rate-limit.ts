/**
 * A token bucket per key (a peer): `perSecond` tokens flow in, at most `burst` are kept, and each accepted item
 * takes one. Keys are held weakly, so a closed peer's bucket goes with it.
 */
export class RateLimit<K extends object> {
  private readonly buckets = new WeakMap<K, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {}

  /** Takes a token for `key`; false when its bucket is empty. */
  take(key: K, now: number): boolean {
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens--;
    return true;
  }
}
