/**
 * Admission of transactions that arrive one at a time (RPC submissions) in batches: what arrives while batches are
 * being verified waits for the next one, whose transfers' proofs are verified together on the chain's worker threads
 * (a batch is cheaper per proof than one by one, and the main thread stays free); then each transaction goes through
 * the pool's usual admission in arrival order, finding its proofs verified. A proof that fails is not cached, so
 * admission verifies it again and refuses the transaction with the reason.
 */

/** A transaction decoded for admission. */
export interface Candidate<T> {
  readonly id: Uint8Array;
  readonly bytes: Uint8Array;
  readonly tx: T;
}

interface Waiting<T, O> {
  readonly candidate: Candidate<T>;
  readonly options: O;
  resolve(txid: Uint8Array): void;
  reject(error: unknown): void;
}

/** At most this many transactions per batch: enough to share the workers, few enough to answer promptly. */
const MAX_BATCH = 64;
/**
 * What is waiting is shared over the batches that may start, none cut smaller than this (a few proofs per worker still
 * batch well): the first batch back is admitted, and its senders' next transactions queued, while the workers verify
 * the others.
 */
const MIN_BATCH = 16;
/**
 * Batches verified at once: the workers keep verifying queued batches while the main thread admits one or executes a
 * block.
 */
const MAX_IN_FLIGHT = 4;

export class AdmissionBatches<T, O> {
  private queue: Waiting<T, O>[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    /** Decodes a transaction, or throws why it is refused. */
    private readonly decode: (bytes: Uint8Array) => Candidate<T>,
    /** Verifies the proofs of a batch ahead (failures are left for `admit`). */
    private readonly preverify: (batch: readonly Candidate<T>[]) => Promise<void>,
    /** The pool's admission; returns the txid or throws why it is refused. */
    private readonly admit: (candidate: Candidate<T>, options: O) => Uint8Array,
  ) {}

  add(bytes: Uint8Array, options: O): Promise<Uint8Array> {
    let candidate: Candidate<T>;
    try {
      candidate = this.decode(bytes);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ candidate, options, resolve, reject });
      this.schedule();
    });
  }

  /** Starts batches on the next turn, so that submissions arriving together share one. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const starting = Math.max(1, MAX_IN_FLIGHT - this.inFlight);
      const size = Math.min(MAX_BATCH, Math.max(MIN_BATCH, Math.ceil(this.queue.length / starting)));
      while (this.queue.length > 0 && this.inFlight < MAX_IN_FLIGHT) void this.run(this.queue.splice(0, size));
    });
  }

  private async run(batch: Waiting<T, O>[]): Promise<void> {
    this.inFlight++;
    try {
      await this.preverify(batch.map((w) => w.candidate));
    } catch {
      // The workers failed: admission verifies on this thread instead.
    } finally {
      this.inFlight--;
    }
    for (const waiting of batch) {
      try {
        waiting.resolve(this.admit(waiting.candidate, waiting.options));
      } catch (error) {
        waiting.reject(error);
      }
    }
    if (this.queue.length > 0) this.schedule();
  }
}
