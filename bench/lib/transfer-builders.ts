/** Builds many transfers ahead of a load run on worker threads (bench/lib/transfer-build-worker.ts), one per core. */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export interface BuildJob {
  /** Hex of the sender's secret key. */
  secretKey: string;
  /** Hex of the compressed ring keys, in order. */
  ring: string[];
  senderIndex: number;
  receiverIndex: number;
}

/** What a worker gets: the reference block (height as a decimal string, ids in hex) and the jobs. */
export interface BuildBatch {
  domain: string;
  reference: { height: string; blid: string; roothash: string };
  jobs: BuildJob[];
}

const CHUNK = 32;

/** The transactions of `jobs`, in hex and in order. */
export async function buildTransfers(
  domain: string,
  reference: BuildBatch['reference'],
  jobs: readonly BuildJob[],
): Promise<string[]> {
  const workers = Array.from(
    { length: availableParallelism() },
    () => new Worker(new URL('./transfer-build-worker.js', import.meta.url)),
  );
  const built: string[] = new Array(jobs.length);
  let next = 0;
  const run = async (worker: Worker): Promise<void> => {
    while (next < jobs.length) {
      const start = next;
      next += CHUNK;
      const chunk = jobs.slice(start, start + CHUNK);
      const txs = await new Promise<string[]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage({ domain, reference, jobs: chunk } satisfies BuildBatch);
      });
      worker.removeAllListeners('error');
      txs.forEach((tx, i) => (built[start + i] = tx));
    }
  };
  try {
    await Promise.all(workers.map(run));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return built;
}
