/**
 * Worker-thread entry of the registration proof of work (started by registration-pow.ts): loads the same crypto
 * implementation as the wallet, grinds with makeRegistration and posts the registration back. It runs on its own
 * thread so the wallet's event loop (its JSON-RPC server) keeps answering meanwhile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { CoreImpl } from '../core-native/ts/core.js';
import { loadCore } from '../core-native/ts/index.js';
import { makeRegistration } from '../protocol/registration.js';
import type { RegistrationTx } from '../protocol/transaction.js';

/** What the wallet asks the worker for. */
export interface RegistrationPowJob {
  impl: CoreImpl;
  G: Uint8Array;
  secretKey: Uint8Array;
  powBits: number;
}

/** What the worker answers: the registration, or why it could not make one. */
export type RegistrationPowAnswer = { ok: true; tx: RegistrationTx } | { ok: false; message: string };

const job = workerData as RegistrationPowJob;
let answer: RegistrationPowAnswer;
try {
  const core = await loadCore({ impl: job.impl });
  answer = { ok: true, tx: makeRegistration(core, job.G, job.secretKey, job.powBits) };
} catch (error) {
  answer = { ok: false, message: (error as Error).message };
}
parentPort?.postMessage(answer);
