/**
 * A token bucket per key (a peer): `perSecond` tokens flow in, at most `burst` are kept, and each accepted item
 * takes one. Keys are held weakly, so a closed peer's bucket goes with it.
 */
import { TokenBucket } from '../../host/token-bucket.js';

export class RateLimit<K extends object> {
  private readonly buckets = new WeakMap<K, TokenBucket>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {}

  /** Takes a token for `key`; false when its bucket is empty. */
  take(key: K, now: number): boolean {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket({ perSecond: this.perSecond, burst: this.burst }, now);
      this.buckets.set(key, bucket);
    }
    return bucket.take(1, now);
  }
}
