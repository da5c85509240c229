/**
 * The thread's side of core-workers.ts: a worker script calls `serveCoreJobs` with what one job computes. Kept apart
 * from the pools so that the main thread, which only sends jobs, does not load a Core for them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Core, CoreImpl } from './core.js';
import type { CoreWorkerAnswer } from './core-workers.js';
import { loadCore } from './index.js';

/**
 * The thread's side: loads the Core the pool asked for, says it is ready, then answers each job with `handle`'s
 * result, or with the message of what it threw.
 */
export async function serveCoreJobs<Job extends { id: number }, Result>(
  script: string,
  handle: (core: Core, job: Job) => Result,
): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error(`${script} must run in a worker thread`);
  const core = await loadCore({ impl: (workerData as { impl: CoreImpl | 'auto' }).impl });
  const answer = (message: CoreWorkerAnswer<Result>): void => port.postMessage(message);
  port.on('message', (job: Job) => {
    try {
      answer({ id: job.id, result: handle(core, job) });
    } catch (error) {
      answer({ id: job.id, error: (error as Error).message });
    }
  });
  answer({ ready: core.impl });
}
