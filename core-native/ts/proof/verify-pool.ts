/**
 * A pool of worker threads that verify transfer proofs, so that validating a block's transactions uses every core
 * while the main thread stays free. `verify(domain, items)` shares the items out over the workers — largest rings
 * first, each to the worker with the least work queued (counting jobs of other callers still running) — and each
 * worker batch-verifies its share (batch-verifier.ts) with its own Core of the pool's implementation: the native
 * addon loads in worker threads; with 'auto' a worker falls back to the TypeScript core when it does not.
 *
 * Workers start on first use and are unreferenced while idle, so an idle pool never keeps the process alive;
 * `close()` stops them. A worker that dies fails its pending jobs with the reason and is replaced on the next call.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CoreImpl } from '../core.js';
import type { ProofItem } from './batch-verifier.js';
import { packItem, type CompressedProofItem, type CompressedVerification } from './compressed-statement.js';
import type { TransferVerification } from './verifier.js';

export interface VerifyPoolOptions {
  /** Number of workers (default: the number of available cores). */
  size?: number;
  /** Which Core the workers load (default 'auto'). */
  impl?: CoreImpl | 'auto';
}

/** Messages to a worker — items ready to verify, or compressed ones it expands first — and its answers. */
export type VerifyJob = { id: number; domain: string } & (
  | { items: ProofItem[] }
  | { compressed: CompressedProofItem[] }
);
export type VerifyAnswer =
  | { ready: CoreImpl }
  | { id: number; results: CompressedVerification[] }
  | { id: number; error: string };

/**
 * The relative cost of verifying one proof: a fixed part (decoding, transcript, the proof's own points) worth about
 * 64 ring members, plus the ring (measured natively: ring 16 ≈ 4 ms, ring 128 ≈ 10 ms).
 */
const cost = (item: ProofItem | CompressedProofItem): number => item.statement.ring.length + 64;

interface Pending {
  cost: number;
  resolve: (results: CompressedVerification[]) => void;
  reject: (error: Error) => void;
}

class PoolWorker {
  private readonly worker: Worker;
  private readonly ready: Promise<void>;
  private readonly pending = new Map<number, Pending>();
  private dead: Error | undefined;
  /** The cost of the jobs sent and not yet answered. */
  load = 0;

  constructor(impl: CoreImpl | 'auto') {
    this.worker = new Worker(new URL('./verify-worker.js', import.meta.url), { workerData: { impl } });
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', () => resolve());
      this.worker.once('error', reject);
    });
    this.ready.catch(() => undefined); // observed by run()
    this.worker.on('message', (message: VerifyAnswer) => {
      if (!('id' in message)) return;
      const job = this.pending.get(message.id);
      if (!job) return;
      this.settle(message.id, job);
      if ('error' in message) job.reject(new Error(`proof verification worker: ${message.error}`));
      else job.resolve(message.results);
    });
    this.worker.on('error', (error) => this.fail(new Error(`proof verification worker failed: ${error.message}`)));
    this.worker.on('exit', (code) => this.fail(new Error(`proof verification worker exited with code ${code}`)));
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  private settle(id: number, job: Pending): void {
    this.pending.delete(id);
    this.load -= job.cost;
    if (this.pending.size === 0) this.worker.unref();
  }

  private fail(error: Error): void {
    this.dead ??= error;
    for (const [id, job] of this.pending) {
      this.settle(id, job);
      job.reject(error);
    }
  }

  run(job: VerifyJob, items: readonly (ProofItem | CompressedProofItem)[]): Promise<CompressedVerification[]> {
    const { id } = job;
    const jobCost = items.reduce((sum, item) => sum + cost(item), 0);
    this.load += jobCost;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { cost: jobCost, resolve, reject });
      this.worker.ref();
      this.ready.then(
        () => (this.dead ? this.fail(this.dead) : this.worker.postMessage(job)),
        (error: Error) => this.fail(new Error(`proof verification worker failed to start: ${error.message}`)),
      );
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

export class VerifyPool {
  readonly size: number;
  private readonly impl: CoreImpl | 'auto';
  private readonly workers: (PoolWorker | undefined)[];
  private nextId = 0;
  private closed = false;

  constructor(options: VerifyPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
    this.impl = options.impl ?? 'auto';
    this.workers = new Array(this.size).fill(undefined);
  }

  private worker(i: number): PoolWorker {
    let worker = this.workers[i];
    if (!worker?.alive) {
      worker = new PoolWorker(this.impl);
      this.workers[i] = worker;
    }
    return worker;
  }

  /** Verifies every item (proofs for the generator domain `domain`); one result per item, in order. */
  verify(domain: string, items: readonly ProofItem[]): Promise<TransferVerification[]> {
    return this.shareOut(items, (share) => ({ id: this.nextId++, domain, items: share }));
  }

  /**
   * Verifies compressed items, each worker expanding its share first (compressed-statement.ts); an item with a point
   * that is not on the curve is invalid with the reason.
   */
  verifyCompressed(domain: string, items: readonly CompressedProofItem[]): Promise<CompressedVerification[]> {
    return this.shareOut(items.map(packItem), (share) => ({ id: this.nextId++, domain, compressed: share }));
  }

  private async shareOut<T extends ProofItem | CompressedProofItem>(
    items: readonly T[],
    job: (share: T[]) => VerifyJob,
  ): Promise<CompressedVerification[]> {
    if (this.closed) throw new Error('the proof verification pool is closed');
    if (items.length === 0) return [];
    const load = this.workers.map((w) => (w?.alive ? w.load : 0));
    const shares: number[][] = load.map(() => []);
    const order = items.map((_, i) => i).sort((a, b) => cost(items[b]!) - cost(items[a]!));
    for (const i of order) {
      const lightest = load.indexOf(Math.min(...load));
      shares[lightest]!.push(i);
      load[lightest]! += cost(items[i]!);
    }
    const results = new Array<CompressedVerification>(items.length);
    await Promise.all(
      shares.map(async (share, w) => {
        if (share.length === 0) return;
        const mine = share.map((i) => items[i]!);
        const answers = await this.worker(w).run(job(mine), mine);
        share.forEach((i, j) => (results[i] = answers[j]!));
      }),
    );
    return results;
  }

  /** Stops the workers; verifications still running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const workers = this.workers.splice(0).filter((w) => w !== undefined);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
