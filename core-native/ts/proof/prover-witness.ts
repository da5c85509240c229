/**
 * What the prover checks before it proves: the witness must open the statement (docs/cryptography.md § Proof
 * construction). A false statement could not be proved anyway, but the caller deserves to know why — above all a
 * transfer that spends more than the sender's balance — so each mismatch is a `ProofError` that says which.
 */
import type { Core } from '../core.js';
import type { Generators } from '../curve.js';
import { bigintToBytes32BE, readUint256BE } from '../bigint-bytes.js';
import { UmbraError } from '../errors.js';
import { ProofErrorCode } from './proof-errors.js';
import { mod, N } from './field.js';
import { MAX_AMOUNT, type TransferStatement } from './statement.js';

export interface TransferWitness {
  /** The sender's secret key (32 bytes, used mod n). */
  sk: Uint8Array;
  /** The blinding r with D = r·G. */
  r: bigint;
  /** The amount sent to the receiver. */
  amount: bigint;
  /** The sender's balance before the transfer (what its current encrypted balance decrypts to). */
  balance: bigint;
  senderIndex: number;
  receiverIndex: number;
}

export class ProofError extends UmbraError<ProofErrorCode> {
  override readonly name = 'ProofError';
}

function equalPoints(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Checks the witness against the statement; returns the remaining balance b′. */
export function checkWitness(
  core: Core,
  gens: Generators,
  st: TransferStatement,
  wit: TransferWitness,
  n: number,
): bigint {
  const { senderIndex: l0, receiverIndex: l1, amount, balance } = wit;
  for (const [name, index] of [
    ['sender', l0],
    ['receiver', l1],
  ] as const) {
    if (!Number.isInteger(index) || index < 0 || index >= n)
      throw new ProofError(ProofErrorCode.BadWitness, `${name} index ${index} is outside the ring of ${n}`);
  }
  if ((l0 - l1) % 2 === 0)
    throw new ProofError(
      ProofErrorCode.BadWitness,
      `sender index ${l0} and receiver index ${l1} must have opposite parity`,
    );
  for (const [name, v] of [
    ['amount', amount],
    ['balance', balance],
  ] as const) {
    if (typeof v !== 'bigint' || v < 0n || v > MAX_AMOUNT)
      throw new ProofError(ProofErrorCode.BadWitness, `${name} must be a uint64, got ${String(v)}`);
  }
  const debit = amount + st.fee + st.burn;
  if (debit > balance) {
    throw new ProofError(
      ProofErrorCode.InsufficientBalance,
      `insufficient balance: the transfer needs ${debit} (amount ${amount} + fee ${st.fee} + burn ${st.burn}) but the balance is ${balance}`,
    );
  }
  const remaining = balance - debit;
  if (!(wit.sk instanceof Uint8Array) || wit.sk.length !== 32 || mod(readUint256BE(wit.sk)) === 0n)
    throw new ProofError(ProofErrorCode.BadWitness, 'the secret key must be 32 bytes and non-zero mod n');
  if (typeof wit.r !== 'bigint' || wit.r <= 0n || wit.r >= N)
    throw new ProofError(ProofErrorCode.BadWitness, 'the blinding r must be in [1, n − 1]');
  const { G } = gens;
  const Yl = st.ring[l0]!;
  if (!equalPoints(core.g1MulSecret(G, wit.sk), Yl))
    throw new ProofError(ProofErrorCode.BadWitness, `the secret key does not belong to ring member ${l0}`);
  const rBytes = bigintToBytes32BE(wit.r);
  if (!equalPoints(core.g1MulSecret(G, rBytes), st.D))
    throw new ProofError(ProofErrorCode.BadWitness, 'D is not r·G for the given r');
  const expected = (index: number, value: bigint): Uint8Array =>
    core.g1Add(core.g1MulSecret(st.ring[index]!, rBytes), core.g1MulSecret(G, bigintToBytes32BE(mod(value))));
  if (!equalPoints(expected(l0, -debit), st.C[l0]!))
    throw new ProofError(
      ProofErrorCode.BadWitness,
      "the sender's ciphertext C does not encrypt −(amount + fee + burn)",
    );
  if (!equalPoints(expected(l1, amount), st.C[l1]!))
    throw new ProofError(ProofErrorCode.BadWitness, "the receiver's ciphertext C does not encrypt the amount");
  const decrypted = core.g1Sub(st.CLn[l0]!, core.g1MulSecret(st.CRn[l0]!, wit.sk));
  if (!equalPoints(decrypted, core.g1MulSecret(G, bigintToBytes32BE(remaining)))) {
    throw new ProofError(
      ProofErrorCode.BadWitness,
      `the sender's new encrypted balance does not decrypt to ${remaining} (balance − amount − fee − burn): wrong balance or ciphertexts`,
    );
  }
  return remaining;
}
