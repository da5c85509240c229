/**
 * The CPU miner of the daemon (`--mining-threads`) and of `umbra miner`: N worker threads hashing the current job, a
 * log line with the hash rate, and every solution handed to `submit`. Jobs come from `nextJob`, asked again after each solution and whenever the chain moves on.
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import type { WorkerJob, WorkerMessage } from './pow-worker.js';

export interface MinerJob {
  jobId: string;
  blob: Uint8Array;
  difficulty: bigint;
}

export interface CpuMinerOptions {
  threads: number;
  impl: 'native' | 'fallback' | 'auto';
  logger: Logger;
  /** The job to work on now, or undefined when there is nothing to mine. */
  nextJob(): Promise<MinerJob | undefined>;
  submit(jobId: string, blob: Uint8Array): Promise<void>;
  /** How often to log the hash rate, ms. */
  reportEveryMs?: number;
  /** Reports the hash rate each period instead of the log line (`umbra miner` prints its own). */
  onReport?(hashesPerSecond: number): void;
}

export class CpuMiner {
  private readonly workers: Worker[] = [];
  private hashes = 0;
  private totalHashes = 0;
  private lastRate = 0;
  private reportTimer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private currentJobId: string | undefined;
  private running = false;

  constructor(private readonly options: CpuMinerOptions) {}

  get hashCount(): number {
    return this.totalHashes;
  }

  /** Hashes per second over the last report period (0 before the first). */
  get hashRate(): number {
    return this.lastRate;
  }

  async start(): Promise<void> {
    this.running = true;
    const url = new URL('./pow-worker.js', import.meta.url);
    for (let i = 0; i < this.options.threads; i++) {
      const worker = new Worker(url, { workerData: { impl: this.options.impl, workerIndex: i } });
      worker.on('message', (message: WorkerMessage) => this.onMessage(message));
      worker.on('error', (error) => this.options.logger.error(`mining thread ${i} failed: ${error.message}`));
      this.workers.push(worker);
    }
    const every = this.options.reportEveryMs ?? 10_000;
    let last = Date.now();
    this.reportTimer = setInterval(() => {
      const now = Date.now();
      this.lastRate = (this.hashes * 1000) / (now - last);
      if (this.options.onReport) this.options.onReport(this.lastRate);
      else this.options.logger.info(`mining on ${this.workers.length} thread(s): ${this.lastRate.toFixed(1)} H/s`);
      this.hashes = 0;
      last = now;
    }, every);
    this.reportTimer.unref();
    await this.refresh();
  }

  /** Fetches the current job and hands it to every worker (called when the chain or the pool changes). */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const job = this.running ? await this.options.nextJob() : undefined;
        if (!job || job.jobId === this.currentJobId) return;
        this.currentJobId = job.jobId;
        const message: WorkerJob = { jobId: job.jobId, blob: job.blob, difficulty: job.difficulty.toString() };
        for (const worker of this.workers) worker.postMessage(message);
      } catch (error) {
        this.options.logger.warn(`mining: no job: ${(error as Error).message}`);
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  private onMessage(message: WorkerMessage): void {
    if (message.kind === 'hashes') {
      this.hashes += message.count;
      this.totalHashes += message.count;
      return;
    }
    if (message.jobId !== this.currentJobId) return;
    this.currentJobId = undefined;
    this.options
      .submit(message.jobId, message.blob)
      .catch((error: Error) => this.options.logger.warn(`mining: solution rejected: ${error.message}`))
      .finally(() => void this.refresh());
  }

  async stop(): Promise<void> {
    this.running = false;
    this.lastRate = 0;
    clearInterval(this.reportTimer);
    await Promise.all(this.workers.map((worker) => worker.terminate()));
    this.workers.length = 0;
  }
}
