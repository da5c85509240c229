/**
 * The registration's proof of work off the event loop: above a few bits it runs in a worker thread
 * (registration-pow-worker.ts), so the wallet keeps answering while it grinds, and an AbortSignal stops it (the
 * worker is terminated between two grind chunks of a few tens of milliseconds). A few bits take well under a
 * millisecond: those are ground inline, without the worker's start-up cost.
 */
import { Worker } from 'node:worker_threads';
import type { Core } from '../core-native/ts/core.js';
import { makeRegistration } from '../protocol/registration.js';
import type { RegistrationTx } from '../protocol/transaction.js';
import type { RegistrationPowAnswer, RegistrationPowJob } from './registration-pow-worker.js';
import { WalletError, WalletErrorCode } from './wallet-error.js';

/** Up to this many bits (256 attempts on average) the proof of work is ground on the calling thread. */
export const INLINE_POW_BITS = 8;

const cancelled = (): WalletError =>
  new WalletError(
    WalletErrorCode.RegistrationCancelled,
    "the account's registration was cancelled (the wallet closed)",
  );

/** The registration of `secretKey`'s key with `powBits` zero bits, ground in a worker thread unless the bits are few. */
export function computeRegistration(
  core: Core,
  G: Uint8Array,
  secretKey: Uint8Array,
  powBits: number,
  signal?: AbortSignal,
): Promise<RegistrationTx> {
  if (signal?.aborted) return Promise.reject(cancelled());
  if (powBits <= INLINE_POW_BITS) return Promise.resolve(makeRegistration(core, G, secretKey, powBits));
  const job: RegistrationPowJob = { impl: core.impl, G, secretKey, powBits };
  const worker = new Worker(new URL('./registration-pow-worker.js', import.meta.url), { workerData: job });
  return new Promise<RegistrationTx>((resolve, reject) => {
    const abort = (): void => {
      reject(cancelled());
      void worker.terminate();
    };
    signal?.addEventListener('abort', abort, { once: true });
    worker.once('message', (answer: RegistrationPowAnswer) => {
      if (answer.ok) resolve(answer.tx);
      else
        reject(
          new WalletError(
            WalletErrorCode.RegistrationPowFailed,
            `the registration's proof of work failed: ${answer.message}`,
          ),
        );
    });
    worker.once('error', (error) =>
      reject(
        new WalletError(
          WalletErrorCode.RegistrationPowFailed,
          `the registration's proof of work failed: ${error.message}`,
        ),
      ),
    );
    worker.once('exit', (code) => {
      signal?.removeEventListener('abort', abort);
      // After an answer or an abort this changes nothing (a settled promise stays settled).
      reject(
        new WalletError(
          WalletErrorCode.RegistrationPowFailed,
          `the registration's proof of work stopped (exit ${code})`,
        ),
      );
    });
  });
}
