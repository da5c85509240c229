/** Builds many registrations ahead of a run on worker threads (bench/lib/registration-build-worker.ts), one per core. */
import { inWorkers } from './worker-batches.js';

export interface RegistrationBatch {
  domain: string;
  powBits: number;
  /** Hex of the accounts' secret keys. */
  secretKeys: string[];
}

const CHUNK = 500;

/** The registrations of the keys of `secretKeys` (hex), encoded, in order. */
export function buildRegistrations(
  domain: string,
  powBits: number,
  secretKeys: readonly string[],
): Promise<Uint8Array[]> {
  return inWorkers<string, Uint8Array>(
    new URL('./registration-build-worker.js', import.meta.url),
    secretKeys,
    (chunk) => ({ domain, powBits, secretKeys: chunk }) satisfies RegistrationBatch,
    CHUNK,
  );
}
