/**
 * A proof-of-work checking thread (see pow-check-pool.ts): hashes the blobs of each chunk the pool sends and answers
 * whether each meets its target.
 */
import { serveCoreJobs } from './core-worker-thread.js';
import type { PowCheckJob } from './pow-check-pool.js';
import { meetsTarget } from './pow-target.js';

await serveCoreJobs('pow-check-worker.js', (core, job: PowCheckJob) =>
  job.items.map((item) => meetsTarget(core.powHash(item.blob), item.difficulty)),
);
