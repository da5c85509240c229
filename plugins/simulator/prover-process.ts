/**
 * A proving child process (see parallel-prover.ts), started with the Core implementation and the generator domain
 * as arguments: loads the Core and says it is ready, then proves the payloads it is sent one at a time, answering each
 * with the proof or the prover's error, until its parent disconnects.
 */
import { loadCore } from '../../core-native/ts/index.js';
import type { CoreImpl } from '../../core-native/ts/core.js';
import { proveTransfer } from '../../core-native/ts/proof/prover.js';
import type { ProveAnswer, ProveRequest } from './parallel-prover.js';

const send = process.send?.bind(process);
if (!send) throw new Error('prover-process.js must run as a child process with an IPC channel');
const [impl, domain] = process.argv.slice(2) as [CoreImpl, string];
const core = await loadCore({ impl });
const gens = core.generators(domain);
const answer = (message: ProveAnswer): void => void send(message);
process.on('message', ({ index, task }: ProveRequest) => {
  try {
    answer({ index, proof: proveTransfer(core, gens, task.statement, task.witness) });
  } catch (error) {
    answer({ index, error: (error as Error).message });
  }
});
process.on('disconnect', () => process.exit(0));
answer({ ready: true });
