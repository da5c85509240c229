/**
 * A long job on the main thread (a block template, the pool's re-check after a block) run in slices, the event loop
 * given back between them. With a fixed slice of a few ms, a job competing with admission (a turn that admits a batch
 * of transfers holds the loop for tens of ms) got a sliver of the thread, and a template took ten times its own time
 * to build; so a slice lasts as long as the loop took to come back the last time, between `minMs` and `maxMs`: the
 * job gets about half the thread when the loop is busy and nearly all of it when the loop is idle.
 */
export class FairSlices {
  private started = performance.now();
  private length: number;

  constructor(
    private readonly minMs: number,
    private readonly maxMs: number,
  ) {
    this.length = minMs;
  }

  /** Whether this slice has used its time: the job should `yield` before its next step. */
  due(): boolean {
    return performance.now() - this.started >= this.length;
  }

  /** Gives the event loop a turn; the next slice lasts as long as the turn did (within the bounds). */
  async yield(): Promise<void> {
    const asked = performance.now();
    await new Promise((resolve) => setImmediate(resolve));
    this.started = performance.now();
    this.length = Math.min(this.maxMs, Math.max(this.minMs, this.started - asked));
  }
}
