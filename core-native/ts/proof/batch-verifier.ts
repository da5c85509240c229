/**
 * Batch verification of transfer proofs (one thread). Each proof's transcript and Σ-protocol commitments are
 * checked on their own (the challenge c hashes them, so they must be computed exactly); the remaining point
 * equations of all proofs — each proof's index and inner-product checks — are multiplied by independent random
 * 128-bit weights and summed into one multi-scalar multiplication over the shared generators (Gs, Hs, H) and the
 * proofs' own points. If any proof's check is not zero, the sum is zero only for one value of that proof's weight
 * given the others: probability 2^−128.
 *
 * When the sum is not zero, every proof's deferred check is evaluated alone to name the ones that fail, so one bad
 * proof never marks good ones invalid. For many proofs on several cores see verify-pool.ts.
 */
import { randomBytes } from 'node:crypto';
import { bigintFromBytesBE } from '../bigint-bytes.js';
import type { Core } from '../core.js';
import type { Generators } from '../curve.js';
import type { TransferStatement } from './statement.js';
import {
  accepted,
  finishChecks,
  finishTransferProof,
  prepareTransferProof,
  type PreparedProof,
  type TransferVerification,
} from './verifier.js';

export interface ProofItem {
  statement: TransferStatement;
  proof: Uint8Array;
}

/** A uniformly random non-zero 128-bit weight. */
function randomWeight(): bigint {
  for (;;) {
    const w = bigintFromBytesBE(randomBytes(16));
    if (w !== 0n) return w;
  }
}

/** Whether the weighted sum of the proofs' deferred checks is zero (the first weight can be 1). */
function batchHolds(core: Core, gens: Generators, prepared: readonly (PreparedProof & { valid: true })[]): boolean {
  try {
    return finishChecks(
      core,
      gens,
      prepared.map((p) => p.check),
      prepared.map((_, i) => (i === 0 ? 1n : randomWeight())),
    );
  } catch {
    return false; // the per-proof checks say which one is at fault
  }
}

/** Verifies many transfer proofs; one result per item, in order, the same as verifyTransferProof would give. */
export function verifyTransferProofs(
  core: Core,
  gens: Generators,
  items: readonly ProofItem[],
): TransferVerification[] {
  const prepared = items.map((item) => prepareTransferProof(core, gens, item.statement, item.proof));
  const pending = prepared.filter((p): p is PreparedProof & { valid: true } => p.valid);
  if (pending.length > 1 && batchHolds(core, gens, pending)) return prepared.map((p) => (p.valid ? accepted(p) : p));
  return prepared.map((p) => finishTransferProof(core, gens, p));
}
