/** Runs many jobs on worker threads, one per core, in batches: each worker answers a batch with its results in order. */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** The results of `jobs`, in order; the worker at `url` gets `batch(chunk)` messages and answers each with an array. */
export async function inWorkers<Job, Result>(
  url: URL,
  jobs: readonly Job[],
  batch: (chunk: Job[]) => unknown,
  chunkSize: number,
): Promise<Result[]> {
  const workers = Array.from({ length: Math.min(availableParallelism(), jobs.length) }, () => new Worker(url));
  const results: Result[] = new Array(jobs.length);
  let next = 0;
  const run = async (worker: Worker): Promise<void> => {
    while (next < jobs.length) {
      const start = next;
      next += chunkSize;
      const answer = await new Promise<Result[]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage(batch(jobs.slice(start, start + chunkSize)));
      });
      worker.removeAllListeners('error');
      answer.forEach((result, i) => (results[start + i] = result));
    }
  };
  try {
    await Promise.all(workers.map(run));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}
