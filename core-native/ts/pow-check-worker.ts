/**
 * A proof-of-work checking thread (see pow-check-pool.ts): loads its own Core, says it is ready, then hashes the
 * blobs of each chunk the pool sends and answers whether each meets its target.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { CoreImpl } from './core.js';
import { loadCore } from './index.js';
import { meetsTarget } from './pow-target.js';
import type { PowCheckAnswer, PowCheckJob } from './pow-check-pool.js';

const port = parentPort;
if (!port) throw new Error('pow-check-worker.js must run in a worker thread');
const core = await loadCore({ impl: (workerData as { impl: CoreImpl | 'auto' }).impl });
const answer = (message: PowCheckAnswer): void => port.postMessage(message);
port.on('message', (job: PowCheckJob) => {
  try {
    answer({ id: job.id, verdicts: job.items.map((item) => meetsTarget(core.powHash(item.blob), item.difficulty)) });
  } catch (error) {
    answer({ id: job.id, error: (error as Error).message });
  }
});
answer({ ready: core.impl });
