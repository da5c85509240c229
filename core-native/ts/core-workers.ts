/**
 * Worker threads that each load their own Core and answer jobs by id: what the proof verification pool and the
 * proof-of-work check pool are built on. A thread (its script serves jobs with `serveCoreJobs`, core-worker-thread.ts) starts on first use
 * and is unreferenced while idle, so idle workers never keep the process alive; one that dies fails its pending jobs
 * with the reason and is replaced on the next use; `close()` stops them all.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CoreImpl } from './core.js';

/** What a worker thread answers: that its Core is loaded, then each job's result or the reason it failed. */
export type CoreWorkerAnswer<Result> =
  | { ready: CoreImpl }
  | { id: number; result: Result }
  | { id: number; error: string };

interface Pending<Result> {
  cost: number;
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

/** One worker thread; `role` names it in its errors (e.g. "proof verification"). */
class CoreWorker<Job extends { id: number }, Result> {
  private readonly worker: Worker;
  private readonly ready: Promise<void>;
  private readonly pending = new Map<number, Pending<Result>>();
  private dead: Error | undefined;
  /** The cost of the jobs sent and not yet answered. */
  load = 0;

  constructor(
    script: URL,
    impl: CoreImpl | 'auto',
    private readonly role: string,
  ) {
    this.worker = new Worker(script, { workerData: { impl } });
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', () => resolve());
      this.worker.once('error', reject);
    });
    this.ready.catch(() => undefined); // observed by run()
    this.worker.on('message', (answer: CoreWorkerAnswer<Result>) => {
      if (!('id' in answer)) return;
      const job = this.pending.get(answer.id);
      if (!job) return;
      this.settle(answer.id, job);
      if ('error' in answer) job.reject(new Error(`${role} worker: ${answer.error}`));
      else job.resolve(answer.result);
    });
    this.worker.on('error', (error) => this.fail(new Error(`${role} worker failed: ${error.message}`)));
    this.worker.on('exit', (code) => this.fail(new Error(`${role} worker exited with code ${code}`)));
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  private settle(id: number, job: Pending<Result>): void {
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

  /** Sends `job` once the thread is ready; `cost` counts in `load` until it is answered. */
  run(job: Job, cost = 0): Promise<Result> {
    this.load += cost;
    return new Promise((resolve, reject) => {
      this.pending.set(job.id, { cost, resolve, reject });
      this.worker.ref();
      this.ready.then(
        () => (this.dead ? this.fail(this.dead) : this.worker.postMessage(job)),
        (error: Error) => this.fail(new Error(`${this.role} worker failed to start: ${error.message}`)),
      );
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

export interface CoreWorkersOptions {
  /** Number of workers (default: the number of available cores). */
  size?: number;
  /** Which Core the workers load (default 'auto': the addon, else the TypeScript core where it does not load). */
  impl?: CoreImpl | 'auto';
}

/** A fixed number of worker slots running `script`, each started on first use and replaced when it dies. */
export class CoreWorkers<Job extends { id: number }, Result> {
  readonly size: number;
  private readonly impl: CoreImpl | 'auto';
  private readonly slots: (CoreWorker<Job, Result> | undefined)[];
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly script: URL,
    private readonly role: string,
    options: CoreWorkersOptions = {},
  ) {
    this.size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
    this.impl = options.impl ?? 'auto';
    this.slots = new Array(this.size).fill(undefined);
  }

  /** A fresh job id. */
  jobId(): number {
    return this.nextId++;
  }

  /** Throws when the workers were closed (`what` names the pool in the message). */
  checkOpen(what: string): void {
    if (this.closed) throw new Error(`the ${what} is closed`);
  }

  /** The cost queued on each slot (a dead or unstarted worker has none). */
  loads(): number[] {
    return this.slots.map((w) => (w?.alive ? w.load : 0));
  }

  /** Runs `job` on slot `i`, starting (or replacing) its worker. */
  run(i: number, job: Job, cost = 0): Promise<Result> {
    let worker = this.slots[i];
    if (!worker?.alive) {
      worker = new CoreWorker<Job, Result>(this.script, this.impl, this.role);
      this.slots[i] = worker;
    }
    return worker.run(job, cost);
  }

  /** Stops the workers; jobs still running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const workers = this.slots.splice(0).filter((w) => w !== undefined);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
