/**
 * A long job on the main thread (a block template, the pool's re-check after a block) run in slices, the event loop
 * given back between them. With a fixed slice of a few ms, a job competing with admission (a turn that admits a batch
 * of transfers holds the loop for tens of ms) got a sliver of the thread, and a template took ten times its own time
 * to build; so a slice lasts as long as the loop took to come back the last time, between `minMs` and `maxMs`: the
 * job gets about half the thread when the loop is busy and nearly all of it when the loop is idle.
 */
/** The shortest and the longest slice, ms, unless a job asks for others. */
export const FAIR_SLICE_MIN_MS = 4;
export const FAIR_SLICE_MAX_MS = 50;

export class FairSlices {
  private started: number;
  private length: number;

  constructor(
    private readonly minMs = FAIR_SLICE_MIN_MS,
    private readonly maxMs = Math.max(minMs, FAIR_SLICE_MAX_MS),
    /** The clock, ms (tests give their own). */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
    this.length = minMs;
  }

  /** Whether this slice has used its time: the job should `yield` before its next step. */
  due(): boolean {
    return this.now() - this.started >= this.length;
  }

  /** Gives the event loop a turn; the next slice lasts as long as the turn did (within the bounds). */
  async yield(): Promise<void> {
    const asked = this.now();
    await new Promise((resolve) => setImmediate(resolve));
    this.started = this.now();
    this.length = Math.min(this.maxMs, Math.max(this.minMs, this.started - asked));
  }
}
