/**
 * The Fiat–Shamir transcript of a transfer proof (docs/cryptography.md § Proof construction), written once for the prover and
 * the verifier: if the two ever hashed different inputs, every proof would fail.
 *
 * Each challenge hashes the previous one with the commitments of its step, so the challenges form one chain:
 *   Hs(txid) → v → w → y → z → x → c → o → x_1 … x_7 (the inner-product rounds).
 * Call the methods in that order; each returns its challenge and makes it the link for the next one.
 */
import type { Core } from '../core.js';
import { challenge } from './points.js';
import { ROUND_FIELDS, type TransferProof } from './serialize.js';

/** The four commitments hashed into v: the range-proof bits BA, BS and the index commitments A, B. */
export type IndexCommitments = Pick<TransferProof, 'BA' | 'BS' | 'A' | 'B'>;

/** The per-round point lists hashed into w. */
export type RoundCommitments = Pick<TransferProof, (typeof ROUND_FIELDS)[number]>;

/** The six Σ-protocol commitments hashed into c, in this order. */
export type SigmaCommitments = readonly [
  Ay: Uint8Array,
  AD: Uint8Array,
  Ab: Uint8Array,
  AX: Uint8Array,
  At: Uint8Array,
  Au: Uint8Array,
];

export class TransferTranscript {
  private last: bigint;

  constructor(
    private readonly core: Core,
    txid: Uint8Array,
  ) {
    this.last = challenge(core, [txid]);
  }

  private next(parts: readonly (Uint8Array | bigint)[]): bigint {
    this.last = challenge(this.core, [this.last, ...parts]);
    return this.last;
  }

  /** v, over BA, BS, A, B. */
  indexChallenge(commitments: IndexCommitments): bigint {
    return this.next([commitments.BA, commitments.BS, commitments.A, commitments.B]);
  }

  /** w, over every round's commitments, list by list (all CLnG, then all CRnG, …). */
  roundChallenge(rounds: RoundCommitments): bigint {
    return this.next(ROUND_FIELDS.flatMap((field) => rounds[field]));
  }

  /** y and z, which hash nothing but the chain. */
  rangeChallenges(): { y: bigint; z: bigint } {
    const y = this.next([]);
    return { y, z: this.next([]) };
  }

  /** x, over the commitments T1, T2 to the range polynomial's coefficients. */
  polynomialChallenge(T1: Uint8Array, T2: Uint8Array): bigint {
    return this.next([T1, T2]);
  }

  /** c, over the Σ-protocol commitments (the verifier compares it with the proof's c). */
  sigmaChallenge(commitments: SigmaCommitments): bigint {
    return this.next(commitments);
  }

  /** o, the inner-product argument's base challenge. */
  innerProductBase(): bigint {
    return this.next([]);
  }

  /** x_j of one inner-product round, over its L_j and R_j. */
  innerProductRound(L: Uint8Array, R: Uint8Array): bigint {
    return this.next([L, R]);
  }
}
