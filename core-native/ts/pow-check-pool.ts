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
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CoreImpl } from './core.js';

/** One proof of work to check: the blob's hash must be at most 2^256 / difficulty. */
export interface PowCheckItem {
  blob: Uint8Array;
  difficulty: bigint;
}

export interface PowCheckPoolOptions {
  /** Number of workers (default: the number of available cores). */
  size?: number;
  /** Which Core the workers load (default 'auto'). */
  impl?: CoreImpl | 'auto';
}

/** A chunk to a worker, and its answers: one verdict per item, in order. */
export interface PowCheckJob {
  id: number;
  items: PowCheckItem[];
}
export type PowCheckAnswer = { ready: CoreImpl } | { id: number; verdicts: boolean[] } | { id: number; error: string };

/** Items per chunk: a block's ten miniblocks, some 45 ms of native hashing. */
const CHUNK_ITEMS = 10;

class PowWorker {
  private readonly worker: Worker;
  private readonly ready: Promise<void>;
  private readonly pending = new Map<number, { resolve: (verdicts: boolean[]) => void; reject: (e: Error) => void }>();
  private dead: Error | undefined;

  constructor(impl: CoreImpl | 'auto') {
    this.worker = new Worker(new URL('./pow-check-worker.js', import.meta.url), { workerData: { impl } });
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', () => resolve());
      this.worker.once('error', reject);
    });
    this.ready.catch(() => undefined); // observed by run()
    this.worker.on('message', (answer: PowCheckAnswer) => {
      if (!('id' in answer)) return;
      const job = this.pending.get(answer.id);
      if (!job) return;
      this.settle(answer.id);
      if ('error' in answer) job.reject(new Error(`proof-of-work worker: ${answer.error}`));
      else job.resolve(answer.verdicts);
    });
    this.worker.on('error', (error) => this.fail(new Error(`proof-of-work worker failed: ${error.message}`)));
    this.worker.on('exit', (code) => this.fail(new Error(`proof-of-work worker exited with code ${code}`)));
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  private settle(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  private fail(error: Error): void {
    this.dead ??= error;
    for (const [id, job] of this.pending) {
      this.settle(id);
      job.reject(error);
    }
  }

  run(job: PowCheckJob): Promise<boolean[]> {
    return new Promise((resolve, reject) => {
      this.pending.set(job.id, { resolve, reject });
      this.worker.ref();
      this.ready.then(
        () => (this.dead ? this.fail(this.dead) : this.worker.postMessage(job)),
        (error: Error) => this.fail(new Error(`proof-of-work worker failed to start: ${error.message}`)),
      );
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

export class PowCheckPool {
  readonly size: number;
  private readonly impl: CoreImpl | 'auto';
  private readonly workers: (PowWorker | undefined)[];
  private nextId = 0;
  private closed = false;

  constructor(options: PowCheckPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
    this.impl = options.impl ?? 'auto';
    this.workers = new Array(this.size).fill(undefined);
  }

  private worker(i: number): PowWorker {
    let worker = this.workers[i];
    if (!worker?.alive) {
      worker = new PowWorker(this.impl);
      this.workers[i] = worker;
    }
    return worker;
  }

  /**
   * Whether each item's proof of work holds, in order. `onProgress` hears the number of items checked so far after
   * every chunk. Rejects when a worker fails (the verdicts are then unknown).
   */
  async check(items: readonly PowCheckItem[], onProgress?: (checked: number) => void): Promise<boolean[]> {
    if (this.closed) throw new Error('the proof-of-work pool is closed');
    const verdicts = new Array<boolean>(items.length);
    let next = 0;
    let checked = 0;
    const drain = async (w: number): Promise<void> => {
      while (next < items.length) {
        const from = next;
        next = Math.min(items.length, from + CHUNK_ITEMS);
        const chunk = items.slice(from, next);
        const answer = await this.worker(w).run({ id: this.nextId++, items: chunk });
        answer.forEach((verdict, i) => (verdicts[from + i] = verdict));
        checked += chunk.length;
        onProgress?.(checked);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.size, items.length) }, (_, w) => drain(w)));
    return verdicts;
  }

  /** Stops the workers; checks still running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const workers = this.workers.splice(0).filter((w) => w !== undefined);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
