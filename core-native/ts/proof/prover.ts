/**
 * The transfer-proof prover (docs/cryptography.md § Proof construction), over the Core interface: the native and the
 * fallback core run this same code, so with the same randomness they produce the same bytes. This file runs the
 * steps in the transcript's order; the Bulletproofs range proof is in range-prover.ts, the ring proof and its
 * Σ-protocol in ring-prover.ts, and the witness is checked first (prover-witness.ts), so that nothing false is proved.
 *
 * Timing: single multiplications by secrets (keys, blinders, Σ-protocol nonces, amounts) use the Core's
 * constant-time `g1MulSecret`. The multi-scalar multiplications whose scalars depend on the witness (the range
 * commitments, the index polynomials, the inner-product rounds) use the variable-time MSM, as the reference does;
 * a wallet proves on its own machine, where timing is not observable to the network.
 */
import type { Core } from '../core.js';
import type { Generators } from '../curve.js';
import { readUint256BE } from '../bigint-bytes.js';
import { inv, mod, powers, randomNonZero, type ScalarSource } from './field.js';
import { checkWitness, ProofError, type TransferWitness } from './prover-witness.js';
import {
  commitToRangeBits,
  commitToRangePolynomial,
  evaluateRangePolynomial,
  innerProductArgument,
  rangePolynomial,
} from './range-prover.js';
import {
  commitToRingIndexBits,
  commitToRingPolynomials,
  oneOutOfManyPolynomials,
  oneOutOfManyResponses,
  sigmaProtocol,
} from './ring-prover.js';
import { encodeTransferProof, RANGE_BITS } from './serialize.js';
import { ProofErrorCode } from './proof-errors.js';
import { checkStatementShape, StatementError, type TransferStatement } from './statement.js';
import { TransferTranscript } from './transcript.js';

export { ProofError, type TransferWitness } from './prover-witness.js';

export interface ProveOptions {
  /** Source of the proof's random scalars (default: the system CSPRNG). Fixed only for tests and benchmarks. */
  random?: ScalarSource;
}

/** Proves a transfer; returns the serialised proof (1013 + 328·log2 N bytes). */
export function proveTransfer(
  core: Core,
  gens: Generators,
  st: TransferStatement,
  wit: TransferWitness,
  options: ProveOptions = {},
): Uint8Array {
  const m = ringLog2Of(st);
  const remaining = checkWitness(core, gens, st, wit, 1 << m);
  const random = options.random ?? randomNonZero;
  const { senderIndex, receiverIndex, amount } = wit;
  const transcript = new TransferTranscript(core, st.txid);

  const rangeBits = commitToRangeBits(core, gens, amount, remaining, random);
  const index = commitToRingIndexBits(core, gens, m, senderIndex, receiverIndex, random);
  const v = transcript.indexChallenge({ BA: rangeBits.BA, BS: rangeBits.BS, A: index.A, B: index.B });

  const polynomials = oneOutOfManyPolynomials(index, m);
  const transfer = { senderIndex, receiverIndex, amount, fee: st.fee + st.burn };
  const { rounds, blinders } = commitToRingPolynomials(core, gens, st, transfer, polynomials, v, random);
  const w = transcript.roundChallenge(rounds);
  const { f, zA } = oneOutOfManyResponses(index, w);

  const { y, z } = transcript.rangeChallenges();
  const polynomial = rangePolynomial(rangeBits, y, z);
  const tCommitment = commitToRangePolynomial(core, gens, polynomial, random);
  const x = transcript.polynomialChallenge(tCommitment.T1, tCommitment.T2);
  const range = evaluateRangePolynomial(rangeBits, polynomial, tCommitment, x);

  const sk = mod(readUint256BE(wit.sk));
  const sigma = sigmaProtocol(
    core,
    gens,
    transcript,
    { st, sk, r: wit.r, senderIndex, amount, remaining, tauX: range.tauX, blinders, f, v, w, z },
    random,
  );

  const o = transcript.innerProductBase();
  const ipa = innerProductArgument(core, gens, transcript, range.l, range.r, powers(inv(y), RANGE_BITS), o);
  return encodeTransferProof(core, {
    m,
    BA: rangeBits.BA,
    BS: rangeBits.BS,
    A: index.A,
    B: index.B,
    ...rounds,
    u: sigma.u,
    f,
    zA,
    T1: tCommitment.T1,
    T2: tCommitment.T2,
    that: range.that,
    mu: range.mu,
    c: sigma.c,
    s_sk: sigma.s_sk,
    s_r: sigma.s_r,
    s_b: sigma.s_b,
    s_tau: sigma.s_tau,
    ipaA: ipa.a,
    ipaB: ipa.b,
    L: ipa.L,
    R: ipa.R,
  });
}

/** log2 of the ring size, a malformed statement refused as a `ProofError`. */
function ringLog2Of(st: TransferStatement): number {
  try {
    return checkStatementShape(st);
  } catch (error) {
    if (!(error instanceof StatementError)) throw error;
    throw new ProofError(ProofErrorCode.BadStatement, error.message, { cause: error });
  }
}
