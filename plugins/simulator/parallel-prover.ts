/**
 * Makes the proofs of a transfer with many payloads (the simulator's funding transaction: one per wallet) on every
 * core: this thread and helper processes take the payloads one at a time from a common queue — a helper from the
 * moment it has started, so a slow start or a busy core costs no balance — and the helpers exit when the queue is
 * empty. Processes rather than worker threads: a terminated worker thread leaves ≈ 20 MiB of this process resident,
 * an exited process nothing. A few payloads are proved here only, where starting a helper would cost more than it saves.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Core } from '../../core-native/ts/core.js';
import { proveTransfer } from '../../core-native/ts/proof/prover.js';
import type { ProofTask } from '../../protocol/transfer-builder.js';

/** Fewer payloads than this are proved on this thread (a proof of ring 2 takes ≈ 60 ms, a helper's start ≈ 150). */
const MIN_PAYLOADS_FOR_HELPERS = 4;

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

/** A helper process that proves payloads from `queue` until it is empty; resolves when it has been told to exit. */
function workOn(core: Core, domain: string, queue: ProofQueue, helpers: Set<ChildProcess>): Promise<void> {
  const helper = fork(fileURLToPath(new URL('./prover-process.js', import.meta.url)), [core.impl, domain], {
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    // Not this process's Node flags: an --inspect port or a profiler is this process's own.
    execArgv: [],
  });
  helpers.add(helper);
  return new Promise<void>((resolve, reject) => {
    const request = (): void => {
      const index = queue.take();
      if (index === undefined) resolve();
      else helper.send({ index, task: queue.tasks[index]! } satisfies ProveRequest);
    };
    helper.on('message', (answer: ProveAnswer) => {
      if ('error' in answer) return reject(new Error(`proving process: ${answer.error}`));
      if ('proof' in answer) queue.proofs[answer.index] = answer.proof;
      request();
    });
    helper.once('error', (error) => reject(new Error(`proving process failed: ${error.message}`)));
    helper.once('exit', (code, signal) => reject(new Error(`proving process exited (${signal ?? `code ${code}`})`)));
  }).finally(() => stop(helper, helpers));
}

function stop(helper: ChildProcess, helpers: Set<ChildProcess>): void {
  helpers.delete(helper);
  if (helper.connected) helper.disconnect();
}

/** The proofs of `tasks` (generator domain `domain`), in order. */
export async function proveInParallel(core: Core, domain: string, tasks: readonly ProofTask[]): Promise<Uint8Array[]> {
  const queue = new ProofQueue(tasks);
  const helperCount = tasks.length < MIN_PAYLOADS_FOR_HELPERS ? 0 : availableParallelism() - 1;
  const helpers = new Set<ChildProcess>();
  const helping = Promise.all(Array.from({ length: helperCount }, () => workOn(core, domain, queue, helpers)));
  helping.catch(() => undefined); // observed below, after this thread's share
  try {
    const gens = core.generators(domain);
    for (let index = queue.take(); index !== undefined; index = queue.take()) {
      const { statement, witness } = tasks[index]!;
      queue.proofs[index] = proveTransfer(core, gens, statement, witness);
      // The helpers' answers come in between two proofs, and with them their next payloads.
      if (helperCount > 0) await nextTurn();
    }
    await helping;
    return queue.proofs;
  } finally {
    for (const helper of [...helpers]) stop(helper, helpers);
  }
}
