/**
 * Worker thread for agreement.test.ts: hashes its share of the inputs with the fallback and with the native core
 * (the miner, too, calls the native hash from worker threads, each with its own scratch buffers).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadCore } from '../../../core-native/ts/index.js';

const { inputs } = workerData as { inputs: Uint8Array[] };
const fallback = await loadCore({ impl: 'fallback' });
const native = await loadCore({ impl: 'native' });
const out = new Uint8Array(inputs.length * 64);
inputs.forEach((input, i) => {
  out.set(fallback.powHash(input), i * 64);
  out.set(native.powHash(input), i * 64 + 32);
});
parentPort!.postMessage(out, [out.buffer]);
