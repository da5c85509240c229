/**
 * The node's clock, in milliseconds (registered as `clock`). Everything that compares block timestamps with "now"
 * — the chain's future-drift check, block templates — reads it. Only the simulator moves it (SIMULATOR.Mine's
 * timestamp steps, SIMULATOR.SetNextTimestamp): elsewhere it is the system clock.
 */
export class NodeClock {
  private offsetMs = 0n;

  now(): bigint {
    return BigInt(Date.now()) + this.offsetMs;
  }

  /** Makes `now()` read `ms` at this moment; it runs on from there. */
  set(ms: bigint): void {
    this.offsetMs = ms - BigInt(Date.now());
  }
}
