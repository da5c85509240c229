/**
 * A mining worker thread: hashes one job's 48-byte miniblock with varying nonces until it meets the job's target,
 * reports the solution and its hash count, and switches job whenever the main thread sends a new one.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadCore } from '../../core-native/ts/index.js';
import { meetsTarget } from '../../core-native/ts/pow-target.js';

export interface WorkerJob {
  jobId: string;
  blob: Uint8Array;
  /** Decimal difficulty the hash must meet. */
  difficulty: string;
}

export type WorkerMessage = { kind: 'found'; jobId: string; blob: Uint8Array } | { kind: 'hashes'; count: number };

const { impl, workerIndex } = workerData as { impl: 'native' | 'fallback' | 'auto'; workerIndex: number };
const core = await loadCore({ impl });
/** Hashes per slice between checks for a new job. */
const SLICE = 8;

let job: { jobId: string; blob: Uint8Array; difficulty: bigint } | undefined;
let counter = 0;
/** No job to hash: the next job message starts the loop again. */
let idle = false;

parentPort!.on('message', (message: WorkerJob | 'stop') => {
  if (message === 'stop') {
    job = undefined;
    parentPort!.close();
    return;
  }
  job = { jobId: message.jobId, blob: Uint8Array.from(message.blob), difficulty: BigInt(message.difficulty) };
  const view = new DataView(job.blob.buffer);
  // Nonce word 1 separates the workers; word 0 starts random so that restarts and other nodes do not repeat work.
  view.setUint32(36, (Math.random() * 2 ** 32) >>> 0);
  view.setUint32(40, workerIndex);
  counter = 0;
  if (idle) {
    idle = false;
    setImmediate(work);
  }
});

function work(): void {
  const current = job;
  if (current) {
    const view = new DataView(current.blob.buffer);
    let hashed = 0;
    while (hashed < SLICE) {
      view.setUint32(44, counter++);
      hashed++;
      if (meetsTarget(core.powHash(current.blob), current.difficulty)) {
        parentPort!.postMessage({
          kind: 'found',
          jobId: current.jobId,
          blob: Uint8Array.from(current.blob),
        } satisfies WorkerMessage);
        job = undefined; // wait for the next job: this one is done
        break;
      }
    }
    parentPort!.postMessage({ kind: 'hashes', count: hashed } satisfies WorkerMessage);
    setImmediate(work);
  } else {
    idle = true;
  }
}
work();
