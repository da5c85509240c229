/**
 * A pool of worker threads that check proofs of work — each blob (a 48-byte miniblock) hashed with AstroBWTv3, a few
 * milliseconds apiece natively, and compared with its difficulty's target — so that checking thousands of headers
 * uses every core while the main thread stays free. The blobs go out in small chunks, each to the next worker that
 * is free, and every finished chunk is reported, so a caller can show progress.
 *
 * Workers load their own Core of the pool's implementation ('auto' falls back to the TypeScript one where the addon
 * does not load), start on first use and are unreferenced while idle, so an idle pool never keeps the process
 * alive; `close()` stops them. A worker that dies fails its chunk with the reason and is replaced on the next call.
 */
import { CoreWorkers, type CoreWorkersOptions } from './core-workers.js';

/** One proof of work to check: the blob's hash must be at most 2^256 / difficulty. */
export interface PowCheckItem {
  blob: Uint8Array;
  difficulty: bigint;
}

export type PowCheckPoolOptions = CoreWorkersOptions;

/** A chunk to a worker; its answer is one verdict per item, in order. */
export interface PowCheckJob {
  id: number;
  items: PowCheckItem[];
}

/** Items per chunk: a block's ten miniblocks, some 45 ms of native hashing. */
const CHUNK_ITEMS = 10;

export class PowCheckPool {
  private readonly workers: CoreWorkers<PowCheckJob, boolean[]>;

  constructor(options: PowCheckPoolOptions = {}) {
    this.workers = new CoreWorkers(new URL('./pow-check-worker.js', import.meta.url), 'proof-of-work', options);
  }

  get size(): number {
    return this.workers.size;
  }

  /**
   * Whether each item's proof of work holds, in order. `onProgress` hears the number of items checked so far after
   * every chunk. Rejects when a worker fails (the verdicts are then unknown).
   */
  async check(items: readonly PowCheckItem[], onProgress?: (checked: number) => void): Promise<boolean[]> {
    this.workers.checkOpen('proof-of-work pool');
    const verdicts = new Array<boolean>(items.length);
    let next = 0;
    let checked = 0;
    const drain = async (w: number): Promise<void> => {
      while (next < items.length) {
        const from = next;
        next = Math.min(items.length, from + CHUNK_ITEMS);
        const chunk = items.slice(from, next);
        const answer = await this.workers.run(w, { id: this.workers.jobId(), items: chunk });
        answer.forEach((verdict, i) => (verdicts[from + i] = verdict));
        checked += chunk.length;
        onProgress?.(checked);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.size, items.length) }, (_, w) => drain(w)));
    return verdicts;
  }

  /** Stops the workers; checks still running fail. */
  close(): Promise<void> {
    return this.workers.close();
  }
}
