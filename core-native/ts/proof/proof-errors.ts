/**
 * Why the proof system refuses its input: a statement, witness or proof it cannot work with. The node checks what it
 * passes here first (a transaction's shape and points, a wallet's balance), so these surface when a caller skipped a
 * check; the verifier answers a proof that fails with `valid: false`, not with one of these.
 */
export const ProofErrorCode = {
  /** A statement of the wrong shape: ring size, list lengths, sizes of points and hashes, amounts beyond 64 bits. */
  BadStatement: 'proof.bad-statement',
  /** A point of a statement that does not decompress. */
  NotACurvePoint: 'proof.not-a-curve-point',
  /** Proof bytes of the wrong length, or a proof holding a scalar or point out of range. */
  Malformed: 'proof.malformed',
  /** A witness that does not fit its statement: indices, key, blinding or ciphertexts. */
  BadWitness: 'proof.bad-witness',
  /** The transfer spends more than the sender's balance. */
  InsufficientBalance: 'proof.insufficient-balance',
} as const;
export type ProofErrorCode = (typeof ProofErrorCode)[keyof typeof ProofErrorCode];
