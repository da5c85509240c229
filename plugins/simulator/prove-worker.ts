/**
 * A proving worker thread (see parallel-prover.ts): loads the Core it is given and says it is ready, then proves the
 * payloads it is sent one at a time, answering each with the proof or the prover's error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadCore } from '../../core-native/ts/index.js';
import type { CoreImpl } from '../../core-native/ts/core.js';
import { proveTransfer } from '../../core-native/ts/proof/prover.js';
import type { ProveAnswer, ProveRequest } from './parallel-prover.js';

const port = parentPort;
if (!port) throw new Error('prove-worker.js must run in a worker thread');
const { impl, domain } = workerData as { impl: CoreImpl; domain: string };
const core = await loadCore({ impl });
const gens = core.generators(domain);
const answer = (message: ProveAnswer): void => port.postMessage(message);
port.on('message', ({ index, task }: ProveRequest) => {
  try {
    answer({ index, proof: proveTransfer(core, gens, task.statement, task.witness) });
  } catch (error) {
    answer({ index, error: (error as Error).message });
  }
});
answer({ ready: true });
