/** A worker thread of bench/lib/registration-builders.ts: answers each batch of secret keys with their registrations. */
import { parentPort } from 'node:worker_threads';
import { loadCore } from '../../core-native/ts/index.js';
import { fromHex } from '../../protocol/bytes.js';
import { makeRegistration } from '../../protocol/registration.js';
import { encodeTransaction } from '../../protocol/transaction.js';
import type { RegistrationBatch } from './registration-builders.js';

const core = await loadCore({ impl: 'native' });

parentPort!.on('message', ({ domain, powBits, secretKeys }: RegistrationBatch) => {
  const { G } = core.generators(domain);
  parentPort!.postMessage(
    secretKeys.map((secretKey) => encodeTransaction(makeRegistration(core, G, fromHex(secretKey), powBits))),
  );
});
