/**
 * A proof-verification worker thread (see verify-pool.ts): loads its own Core, says it is ready, then
 * batch-verifies the jobs the pool sends it (expanding compressed statements first).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { CoreImpl } from '../core.js';
import { loadCore } from '../index.js';
import { verifyTransferProofs } from './batch-verifier.js';
import { verifyCompressedProofs } from './compressed-statement.js';
import type { VerifyAnswer, VerifyJob } from './verify-pool.js';

const port = parentPort;
if (!port) throw new Error('verify-worker.js must run in a worker thread');
const core = await loadCore({ impl: (workerData as { impl: CoreImpl | 'auto' }).impl });
const answer = (message: VerifyAnswer): void => port.postMessage(message);
port.on('message', (job: VerifyJob) => {
  try {
    const gens = core.generators(job.domain);
    const results =
      'compressed' in job
        ? verifyCompressedProofs(core, gens, job.compressed)
        : verifyTransferProofs(core, gens, job.items);
    answer({ id: job.id, results });
  } catch (error) {
    answer({ id: job.id, error: (error as Error).message });
  }
});
answer({ ready: core.impl });
