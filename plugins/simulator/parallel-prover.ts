/**
 * Makes the proofs of a transfer with many payloads (the simulator's funding transaction: one per wallet) on every
 * core: this thread and worker threads take the payloads one at a time from a common queue — a worker from the moment
 * it has started, so a slow start or a busy core costs no balance — and the workers stop when the queue is empty. A
 * few payloads are proved here only, where starting a worker would cost more than it saves.
 */
import { availableParallelism } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { Core } from '../../core-native/ts/core.js';
import { proveTransfer } from '../../core-native/ts/proof/prover.js';
import type { ProofTask } from '../../host/protocol/transfer-builder.js';

/** Fewer payloads than this are proved on this thread (a proof of ring 2 takes ≈ 60 ms, a worker's start ≈ 100). */
const MIN_PAYLOADS_FOR_WORKERS = 4;

export interface ProveRequest {
  index: number;
  task: ProofTask;
}
export type ProveAnswer = { ready: true } | { index: number; proof: Uint8Array } | { index: number; error: string };

/** The payloads not yet taken, and the proofs made so far. */
class ProofQueue {
  private next = 0;
  readonly proofs: Uint8Array[] = [];

  constructor(readonly tasks: readonly ProofTask[]) {}

  /** The index of the next payload to prove, or undefined when every one is taken. */
  take(): number | undefined {
    return this.next < this.tasks.length ? this.next++ : undefined;
  }
}

/** A worker that proves payloads from `queue` until it is empty; resolves when it has stopped. */
function workOn(core: Core, domain: string, queue: ProofQueue, workers: Set<Worker>): Promise<void> {
  const worker = new Worker(new URL('./prove-worker.js', import.meta.url), { workerData: { impl: core.impl, domain } });
  workers.add(worker);
  return new Promise<void>((resolve, reject) => {
    const request = (): void => {
      const index = queue.take();
      if (index === undefined) resolve();
      else worker.postMessage({ index, task: queue.tasks[index]! } satisfies ProveRequest);
    };
    worker.on('message', (answer: ProveAnswer) => {
      if ('error' in answer) return reject(new Error(`proving worker: ${answer.error}`));
      if ('proof' in answer) queue.proofs[answer.index] = answer.proof;
      request();
    });
    worker.once('error', (error) => reject(new Error(`proving worker failed: ${error.message}`)));
    worker.once('exit', (code) => reject(new Error(`proving worker exited with code ${code}`)));
  }).finally(() => {
    workers.delete(worker);
    void worker.terminate();
  });
}

/** The proofs of `tasks` (generator domain `domain`), in order. */
export async function proveInParallel(core: Core, domain: string, tasks: readonly ProofTask[]): Promise<Uint8Array[]> {
  const queue = new ProofQueue(tasks);
  const workerCount = tasks.length < MIN_PAYLOADS_FOR_WORKERS ? 0 : availableParallelism() - 1;
  const workers = new Set<Worker>();
  const helping = Promise.all(Array.from({ length: workerCount }, () => workOn(core, domain, queue, workers)));
  helping.catch(() => undefined); // observed below, after this thread's share
  try {
    const gens = core.generators(domain);
    for (let index = queue.take(); index !== undefined; index = queue.take()) {
      const { statement, witness } = tasks[index]!;
      queue.proofs[index] = proveTransfer(core, gens, statement, witness);
      // The workers' answers come in between two proofs, and with them their next payloads.
      if (workerCount > 0) await nextTurn();
    }
    await helping;
    return queue.proofs;
  } finally {
    for (const worker of workers) void worker.terminate();
  }
}
