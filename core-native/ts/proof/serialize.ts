/**
 * The transfer proof's byte format (docs/cryptography.md § Proof bytes), for a ring of N = 2^m members. Points are 33-byte
 * compressed, scalars 32 bytes big-endian, in this order:
 *
 *   BA, BS, A, B
 *   for k < m: CLnG[k], CRnG[k], C_0G[k], DG[k], y_0G[k], gG[k], C_XG[k], y_XG[k]   (interleaved per k)
 *   u
 *   f[0..2m), z_A
 *   T1, T2
 *   t̂, μ, c, s_sk, s_r, s_b, s_τ
 *   inner-product a, b
 *   7 × (L_j, R_j)
 *
 * 1013 + 328·m bytes. The ring size is not in the proof: the statement gives m. Decoding is strict: every point must
 * decompress (x < p, flag 0 or 1, on the curve) and every scalar must be below the group order.
 */
import type { Core } from '../core.js';
import { UmbraError } from '../errors.js';
import { ProofErrorCode } from './proof-errors.js';
import { readUint256BE, writeUint256BE } from '../bigint-bytes.js';
import { N } from './field.js';

export const IPA_ROUNDS = 7;
export const RANGE_BITS = 128;
export const MAX_RING_LOG2 = 7;

export const transferProofSize = (m: number): number => 1013 + 328 * m;

/** Proof bytes that do not decode, or a proof that cannot be encoded. */
export class ProofFormatError extends UmbraError<ProofErrorCode> {
  override readonly name = 'ProofFormatError';
  constructor(message: string, options?: ErrorOptions) {
    super(ProofErrorCode.Malformed, message, options);
  }
}

/** A decoded proof; points are 64-byte affine, scalars reduced integers. */
export interface TransferProof {
  m: number;
  BA: Uint8Array;
  BS: Uint8Array;
  A: Uint8Array;
  B: Uint8Array;
  CLnG: Uint8Array[];
  CRnG: Uint8Array[];
  C_0G: Uint8Array[];
  DG: Uint8Array[];
  y_0G: Uint8Array[];
  gG: Uint8Array[];
  C_XG: Uint8Array[];
  y_XG: Uint8Array[];
  u: Uint8Array;
  f: bigint[];
  zA: bigint;
  T1: Uint8Array;
  T2: Uint8Array;
  that: bigint;
  mu: bigint;
  c: bigint;
  s_sk: bigint;
  s_r: bigint;
  s_b: bigint;
  s_tau: bigint;
  ipaA: bigint;
  ipaB: bigint;
  L: Uint8Array[];
  R: Uint8Array[];
}

/** The eight per-round point lists, in their serialisation order. */
export const ROUND_FIELDS = ['CLnG', 'CRnG', 'C_0G', 'DG', 'y_0G', 'gG', 'C_XG', 'y_XG'] as const;

function checkRingLog2(m: number): void {
  if (!Number.isInteger(m) || m < 1 || m > MAX_RING_LOG2)
    throw new ProofFormatError(`ring size 2^${m} is not a power of two between 2 and 128`);
}

export function encodeTransferProof(core: Core, proof: TransferProof): Uint8Array {
  const { m } = proof;
  checkRingLog2(m);
  const out = new Uint8Array(transferProofSize(m));
  let at = 0;
  const point = (p: Uint8Array): void => {
    out.set(core.g1Compress(p), at);
    at += 33;
  };
  const scalar = (k: bigint): void => {
    if (k < 0n || k >= N) throw new ProofFormatError('a proof scalar is not reduced mod n');
    writeUint256BE(out, at, k);
    at += 32;
  };
  [proof.BA, proof.BS, proof.A, proof.B].forEach(point);
  for (let k = 0; k < m; k++) for (const field of ROUND_FIELDS) point(proof[field][k]!);
  point(proof.u);
  if (proof.f.length !== 2 * m) throw new ProofFormatError(`f must have ${2 * m} entries`);
  proof.f.forEach(scalar);
  scalar(proof.zA);
  point(proof.T1);
  point(proof.T2);
  [proof.that, proof.mu, proof.c, proof.s_sk, proof.s_r, proof.s_b, proof.s_tau, proof.ipaA, proof.ipaB].forEach(
    scalar,
  );
  if (proof.L.length !== IPA_ROUNDS || proof.R.length !== IPA_ROUNDS)
    throw new ProofFormatError(`the inner-product argument has ${IPA_ROUNDS} rounds`);
  for (let j = 0; j < IPA_ROUNDS; j++) {
    point(proof.L[j]!);
    point(proof.R[j]!);
  }
  return out;
}

/** Strict decoding; throws a ProofFormatError naming the bad field. */
export function decodeTransferProof(core: Core, bytes: Uint8Array, m: number): TransferProof {
  checkRingLog2(m);
  if (!(bytes instanceof Uint8Array)) throw new ProofFormatError('a proof must be bytes');
  const size = transferProofSize(m);
  if (bytes.length !== size)
    throw new ProofFormatError(`a proof for ring size ${1 << m} is ${size} bytes, got ${bytes.length}`);
  let at = 0;
  const point = (name: string): Uint8Array => {
    const c = bytes.subarray(at, at + 33);
    at += 33;
    try {
      return core.g1Decompress(c);
    } catch (error) {
      throw new ProofFormatError(`proof point ${name}: ${(error as Error).message}`, { cause: error });
    }
  };
  const scalar = (name: string): bigint => {
    const k = readUint256BE(bytes, at);
    at += 32;
    if (k >= N) throw new ProofFormatError(`proof scalar ${name} is not below the group order`);
    return k;
  };
  const BA = point('BA');
  const BS = point('BS');
  const A = point('A');
  const B = point('B');
  const rounds: Record<(typeof ROUND_FIELDS)[number], Uint8Array[]> = {
    CLnG: [],
    CRnG: [],
    C_0G: [],
    DG: [],
    y_0G: [],
    gG: [],
    C_XG: [],
    y_XG: [],
  };
  for (let k = 0; k < m; k++) for (const field of ROUND_FIELDS) rounds[field].push(point(`${field}[${k}]`));
  const u = point('u');
  const f = Array.from({ length: 2 * m }, (_, i) => scalar(`f[${i}]`));
  const zA = scalar('z_A');
  const T1 = point('T1');
  const T2 = point('T2');
  const that = scalar('t̂');
  const mu = scalar('μ');
  const c = scalar('c');
  const s_sk = scalar('s_sk');
  const s_r = scalar('s_r');
  const s_b = scalar('s_b');
  const s_tau = scalar('s_τ');
  const ipaA = scalar('a');
  const ipaB = scalar('b');
  const L: Uint8Array[] = [];
  const R: Uint8Array[] = [];
  for (let j = 0; j < IPA_ROUNDS; j++) {
    L.push(point(`L[${j}]`));
    R.push(point(`R[${j}]`));
  }
  return { m, BA, BS, A, B, ...rounds, u, f, zA, T1, T2, that, mu, c, s_sk, s_r, s_b, s_tau, ipaA, ipaB, L, R };
}

/** Byte offset of f[0] in a proof (after the 4 + 8m + 1 points): lets callers read it without decoding the rest. */
export const fOffset = (m: number): number => 33 * (5 + 8 * m);
