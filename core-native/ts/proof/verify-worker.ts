/**
 * A proof-verification worker thread (see verify-pool.ts): batch-verifies the jobs the pool sends it (expanding
 * compressed statements, which come packed, first).
 */
import { serveCoreJobs } from '../core-worker-thread.js';
import { verifyTransferProofs } from './batch-verifier.js';
import { unpackItem, verifyCompressedProofs } from './compressed-statement.js';
import type { VerifyJob } from './verify-pool.js';

await serveCoreJobs('verify-worker.js', (core, job: VerifyJob) => {
  const gens = core.generators(job.domain);
  return 'compressed' in job
    ? verifyCompressedProofs(core, gens, job.compressed.map(unpackItem))
    : verifyTransferProofs(core, gens, job.items);
});
