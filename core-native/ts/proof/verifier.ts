/**
 * The transfer-proof verifier (docs/cryptography.md § Proof construction), written over the Core interface so that the native and
 * the fallback implementation run the same code and hash the same transcript.
 *
 * Verification is split in two:
 * 1. `prepareTransferProof` recomputes the transcript and the six Σ-protocol commitments A_y, A_D, A_b, A_X, A_t,
 *    A_u — each one multi-scalar multiplication, since the challenge c hashes them — and checks c. Everything else
 *    that is an equation between points (the index commitment check of step 3 and the inner-product check of step
 *    8) is not evaluated but returned as one linear combination of points that must be the point at infinity: the
 *    two equations weighted by a random ρ, over the shared generators Gs, Hs, H and the proof's own points.
 * 2. `finishChecks` evaluates such combinations — one proof's, or many proofs' each weighted by a fresh random
 *    scalar (batch verification, batch-verifier.ts) — as one MSM.
 *
 * The inner-product check never folds generators: with s_i = Π_j x_j^(±1) it is
 *   BA + x·BS − z·ΣGs + Σ_i (z·y^i + twoZ_i)·y^(−i)·Hs[i] − μ·H + t̂·o·H + Σ_j (x_j²·L_j + x_j^(−2)·R_j)
 *     − a·Σ s_i·Gs[i] − b·Σ s_(127−i)·y^(−i)·Hs[i] − a·b·o·H = 0.
 */
import type { Core } from '../core.js';
import type { Generators } from '../curve.js';
import { add, inv, mul, N, neg, pow, powers, randomNonZero, sub } from './field.js';
import { isInfinity, Msm, pointAt } from './points.js';
import { indexTensor, nuConvolution } from './poly.js';
import { decodeTransferProof, IPA_ROUNDS, RANGE_BITS, type TransferProof } from './serialize.js';
import { checkStatementShape, tagBase, tagNonce, type TransferStatement } from './statement.js';
import { type SigmaCommitments, TransferTranscript } from './transcript.js';

export type TransferVerification =
  | {
      valid: true;
      /** The linkable tag u = sk·U (64-byte point) and its double-spend key Keccak-256(compressed(u)). */
      u: Uint8Array;
      nonce: Uint8Array;
      /** Parity of the sender's ring index, which the proof reveals (docs/protocol.md § Transfer proofs). */
      senderParity: 0 | 1;
    }
  | { valid: false; reason: string };

/** A linear combination of points that is the point at infinity when the deferred equations hold. */
export interface DeferredCheck {
  /** Coefficients of Gs[0..128) and Hs[0..128). */
  gs: bigint[];
  hs: bigint[];
  /** Coefficient of H. */
  h: bigint;
  /** The proof's own points and their coefficients. */
  points: Uint8Array[];
  scalars: bigint[];
}

export type PreparedProof =
  | { valid: true; check: DeferredCheck; u: Uint8Array; nonce: Uint8Array; senderParity: 0 | 1 }
  | { valid: false; reason: string };

const TWO_64_MINUS_1 = (1n << 64n) - 1n;
const HALF = RANGE_BITS / 2;

/** (z − z²)·Σ y^i − (z³ + z⁴)·(2^64 − 1): the constant of the aggregated range proof. */
function rangeDelta(z: bigint, ys: readonly bigint[]): bigint {
  let sumY = 0n;
  for (const v of ys) sumY += v;
  const z2 = mul(z, z);
  const z3 = mul(z2, z);
  return sub(mul(sub(z, z2), sumY % N), mul(add(z3, mul(z3, z)), TWO_64_MINUS_1));
}

/** s_i = Π_j x_j^(bit (6−j) of i ? 1 : −1), i < 128, built from the most significant bit down. */
function ipaScalars(xs: readonly bigint[], xsInv: readonly bigint[]): bigint[] {
  let values = [1n];
  for (let j = 0; j < xs.length; j++) {
    const next = new Array<bigint>(values.length * 2);
    for (let t = 0; t < values.length; t++) {
      next[2 * t] = mul(values[t]!, xsInv[j]!);
      next[2 * t + 1] = mul(values[t]!, xs[j]!);
    }
    values = next;
  }
  return values;
}

/** Inverts every (non-zero) value with one inversion. */
export function batchInvert(values: readonly bigint[]): bigint[] {
  const prefix = new Array<bigint>(values.length);
  let acc = 1n;
  for (let i = 0; i < values.length; i++) {
    prefix[i] = acc;
    acc = mul(acc, values[i]!);
  }
  let inverse = inv(acc);
  const out = new Array<bigint>(values.length);
  for (let i = values.length - 1; i >= 0; i--) {
    out[i] = mul(inverse, prefix[i]!);
    inverse = mul(inverse, values[i]!);
  }
  return out;
}

/**
 * Steps 1–8 of the verifier except the evaluation of the two deferred point equations. `rho` weights the index
 * equation against the inner-product equation (random by default).
 */
export function prepareTransferProof(
  core: Core,
  gens: Generators,
  statement: TransferStatement,
  proofBytes: Uint8Array,
  rho: bigint = randomNonZero(),
): PreparedProof {
  let m: number;
  let proof: TransferProof;
  try {
    m = checkStatementShape(statement);
    proof = decodeTransferProof(core, proofBytes, m);
  } catch (error) {
    return { valid: false, reason: (error as Error).message };
  }
  try {
    return prepareDecoded(core, gens, statement, proof, rho);
  } catch (error) {
    // Only a statement point off the curve can throw here (the Core rejects it inside an MSM).
    return { valid: false, reason: `bad statement: ${(error as Error).message}` };
  }
}

/** The verifier's steps in the transcript's order: challenges, parity rule, Σ-protocol, then the deferred equations. */
function prepareDecoded(
  core: Core,
  gens: Generators,
  st: TransferStatement,
  pf: TransferProof,
  rho: bigint,
): PreparedProof {
  const transcript = new TransferTranscript(core, st.txid);
  const v = transcript.indexChallenge(pf);
  const w = transcript.roundChallenge(pf);
  const senderParity = parityRule(pf.f, w, pf.m);
  if (senderParity === undefined)
    return { valid: false, reason: 'proof fails the parity rule (neither f[0] nor f[m] equals w)' };
  const { y, z } = transcript.rangeChallenges();
  const x = transcript.polynomialChallenge(pf.T1, pf.T2);
  if (transcript.sigmaChallenge(sigmaCommitments(core, gens, st, pf, { v, w, y, z, x })) !== pf.c)
    return { valid: false, reason: 'proof fails the Σ-protocol check (challenge c does not match)' };
  const o = transcript.innerProductBase();
  const xs = pf.L.map((L, j) => transcript.innerProductRound(L, pf.R[j]!));
  const check = innerProductEquation(pf, { x, y, z, o, xs });
  addIndexCommitmentEquation(check, pf, w, rho);
  return { valid: true, check, u: pf.u, nonce: tagNonce(core, pf.u), senderParity };
}

/** The challenges the verifier recomputes from the transcript. */
interface Challenges {
  v: bigint;
  w: bigint;
  y: bigint;
  z: bigint;
  x: bigint;
}

/** Step 2, the one-out-of-many parity rule: f₀ = w (the sender's index is odd) or f_m = w (even); else undefined. */
function parityRule(f: readonly bigint[], w: bigint, m: number): 0 | 1 | undefined {
  if (f[0] === w) return 1;
  if (f[m] === w) return 0;
  return undefined;
}

/**
 * Step 7, Anonymous Zether's Σ-protocol: A_y, A_D, A_b, A_X, A_t, A_u recomputed from the responses with c̄ = −c,
 * in the order the challenge c hashes them. A_t = c·W·(t·G − x·T1 − x²·T2) + s_τ·H − s_b·G with t = t̂ − δ(y, z),
 * A_D = s_r·G + c̄·D, A_u = s_sk·U + c̄·u; the other three sum over the ring (ringSigmaCommitments).
 */
function sigmaCommitments(
  core: Core,
  gens: Generators,
  st: TransferStatement,
  pf: TransferProof,
  challenges: Challenges,
): SigmaCommitments {
  const { y, z, x } = challenges;
  const { G, H } = gens;
  const cBar = neg(pf.c);
  const W = pow(challenges.w, pf.m);
  const { Ay, Ab, AX } = ringSigmaCommitments(gens, st, pf, challenges, W);
  const cW = mul(pf.c, W);
  const t = sub(pf.that, rangeDelta(z, powers(y, RANGE_BITS)));
  const At = new Msm()
    .add(G, sub(mul(cW, t), pf.s_b))
    .add(pf.T1, neg(mul(cW, x)))
    .add(pf.T2, neg(mul(cW, mul(x, x))))
    .add(H, pf.s_tau);
  const U = tagBase(core, gens.domain, st.roothash, st.scid, st.scidIndex);
  const AD = new Msm().add(G, pf.s_r).add(st.D, cBar);
  const Au = new Msm().add(U, pf.s_sk).add(pf.u, cBar);
  return [Ay.run(core), AD.run(core), Ab.run(core), AX.run(core), At.run(core), Au.run(core)];
}

/**
 * Step 7, the Σ-protocol's commitments over the ring, from the index tensors p, q (one-out-of-many) and their
 * ν-convolution coef (many-out-of-many), less the w^k-weighted round commitments:
 * A_y = s_sk·gR + c̄·yR₀, A_b = s_b·G + s_sk·(−z²·DR + z³·CRnR) + c̄·(−z²·(CR₀ + F·W·G) + z³·CLnR),
 * A_X = s_r·y_XR + c̄·C_XR.
 */
function ringSigmaCommitments(
  gens: Generators,
  st: TransferStatement,
  pf: TransferProof,
  { v, w, z }: Challenges,
  W: bigint,
): { Ay: Msm; Ab: Msm; AX: Msm } {
  const { m } = pf;
  const p = indexTensor(pf.f, w, m, 0);
  const coefX = nuConvolution(p, indexTensor(pf.f, w, m, 1), v);
  const wk = powers(w, m);
  const cBar = neg(pf.c);
  const FW = mul((st.fee + st.burn) % N, W);
  const z2 = mul(z, z);
  const skZ2 = mul(pf.s_sk, z2);
  const skZ3 = mul(skZ2, z);
  const cZ2 = mul(cBar, z2);
  const cZ3 = mul(cZ2, z);
  const Ay = new Msm().add(gens.G, mul(pf.s_sk, W));
  const Ab = new Msm().add(gens.G, sub(pf.s_b, mul(cZ2, FW))).add(st.D, neg(mul(skZ2, W)));
  const AX = new Msm().add(gens.G, mul(cBar, FW));
  for (let k = 0; k < m; k++) {
    const wK = wk[k]!;
    Ay.add(pf.gG[k]!, neg(mul(pf.s_sk, wK))).add(pf.y_0G[k]!, neg(mul(cBar, wK)));
    Ab.add(pf.DG[k]!, mul(skZ2, wK))
      .add(pf.CRnG[k]!, neg(mul(skZ3, wK)))
      .add(pf.C_0G[k]!, mul(cZ2, wK))
      .add(pf.CLnG[k]!, neg(mul(cZ3, wK)));
    AX.add(pf.y_XG[k]!, neg(mul(pf.s_r, wK))).add(pf.C_XG[k]!, neg(mul(cBar, wK)));
  }
  for (let j = 0; j < p.length; j++) {
    const pj = p[j]!;
    Ay.add(st.ring[j]!, mul(cBar, pj));
    Ab.add(st.CRn[j]!, mul(skZ3, pj))
      .add(st.C[j]!, neg(mul(cZ2, pj)))
      .add(st.CLn[j]!, mul(cZ3, pj));
    AX.add(st.ring[j]!, mul(pf.s_r, coefX[j]!)).add(st.C[j]!, mul(cBar, coefX[j]!));
  }
  return { Ay, Ab, AX };
}

/**
 * Step 8, Bulletproofs' inner-product check (§3, Protocol 2 unrolled, with §4.1's P), as the deferred combination
 * P + Σ_j (x_j²·L_j + x_j⁻²·R_j) − a·Σ s_i·Gs[i] − b·Σ s_(127−i)·H′_i − a·b·o·H = 0 with
 * P = BA + x·BS − z·ΣGs + Σ_i (z·y^i + twoZ_i)·H′_i − μ·H + t̂·o·H and H′_i = y^(−i)·Hs[i].
 */
function innerProductEquation(
  pf: TransferProof,
  { x, y, z, o, xs }: { x: bigint; y: bigint; z: bigint; o: bigint; xs: readonly bigint[] },
): DeferredCheck {
  const xsInv = batchInvert([...xs, y]);
  const ysInv = powers(xsInv.pop()!, RANGE_BITS);
  const s = ipaScalars(xs, xsInv);
  const { ipaA: a, ipaB: b } = pf;
  const gs = new Array<bigint>(RANGE_BITS);
  const hs = new Array<bigint>(RANGE_BITS);
  const negZ = neg(z);
  const z2 = mul(z, z);
  let two = z2;
  for (let i = 0; i < RANGE_BITS; i++) {
    if (i === HALF) two = mul(z2, z);
    gs[i] = sub(negZ, mul(a, s[i]!));
    hs[i] = add(z, mul(sub(two, mul(b, s[RANGE_BITS - 1 - i]!)), ysInv[i]!));
    two = add(two, two);
  }
  const h = add(neg(pf.mu), mul(o, sub(pf.that, mul(a, b))));
  const points: Uint8Array[] = [pf.BA, pf.BS];
  const scalars: bigint[] = [1n, x];
  for (let j = 0; j < IPA_ROUNDS; j++) {
    points.push(pf.L[j]!, pf.R[j]!);
    scalars.push(mul(xs[j]!, xs[j]!), mul(xsInv[j]!, xsInv[j]!));
  }
  return { gs, hs, h, points, scalars };
}

/**
 * Step 3, the one-out-of-many index commitment check, weighted by ρ and added to `check`:
 * w·B + A − Σ_{k<2m}(f_k·Gs[k] + f_k·(w − f_k)·Hs[k]) − f_0·f_m·Hs[2m] − (w − f_0)(w − f_m)·Hs[2m+1] − z_A·H = 0.
 */
function addIndexCommitmentEquation(check: DeferredCheck, pf: TransferProof, w: bigint, rho: bigint): void {
  const { m, f } = pf;
  const { gs, hs } = check;
  check.points.push(pf.A, pf.B);
  check.scalars.push(rho, mul(rho, w));
  for (let k = 0; k < 2 * m; k++) {
    gs[k] = sub(gs[k]!, mul(rho, f[k]!));
    hs[k] = sub(hs[k]!, mul(rho, mul(f[k]!, sub(w, f[k]!))));
  }
  hs[2 * m] = sub(hs[2 * m]!, mul(rho, mul(f[0]!, f[m]!)));
  hs[2 * m + 1] = sub(hs[2 * m + 1]!, mul(rho, mul(sub(w, f[0]!), sub(w, f[m]!))));
  check.h = sub(check.h, mul(rho, pf.zA));
}

/**
 * Evaluates deferred checks, each multiplied by its weight, as one MSM over the shared generators and every
 * proof's own points; true when the sum is the point at infinity.
 */
export function finishChecks(
  core: Core,
  gens: Generators,
  checks: readonly DeferredCheck[],
  weights: readonly bigint[],
): boolean {
  const gs = new Array<bigint>(RANGE_BITS).fill(0n);
  const hs = new Array<bigint>(RANGE_BITS).fill(0n);
  let h = 0n;
  const msm = new Msm();
  checks.forEach((check, index) => {
    const weight = weights[index]!;
    for (let i = 0; i < RANGE_BITS; i++) {
      gs[i]! += weight * check.gs[i]!;
      hs[i]! += weight * check.hs[i]!;
    }
    h += weight * check.h;
    check.points.forEach((point, i) => msm.add(point, mul(weight, check.scalars[i]!)));
  });
  for (let i = 0; i < RANGE_BITS; i++) {
    msm.add(pointAt(gens.Gs, i), gs[i]! % N);
    msm.add(pointAt(gens.Hs, i), hs[i]! % N);
  }
  msm.add(gens.H, h % N);
  return isInfinity(msm.run(core));
}

/** The result for a prepared proof whose deferred check is known to hold. */
export function accepted(prepared: PreparedProof & { valid: true }): TransferVerification {
  return { valid: true, u: prepared.u, nonce: prepared.nonce, senderParity: prepared.senderParity };
}

/** Finishes one prepared proof by evaluating its deferred check alone. */
export function finishTransferProof(core: Core, gens: Generators, prepared: PreparedProof): TransferVerification {
  if (!prepared.valid) return prepared;
  let ok: boolean;
  try {
    ok = finishChecks(core, gens, [prepared.check], [1n]);
  } catch (error) {
    return { valid: false, reason: `bad statement: ${(error as Error).message}` };
  }
  return ok ? accepted(prepared) : { valid: false, reason: 'proof fails the range-proof and index-commitment checks' };
}

/** Verifies one transfer proof against its statement. Never throws for bad input: it is simply invalid. */
export function verifyTransferProof(
  core: Core,
  gens: Generators,
  statement: TransferStatement,
  proofBytes: Uint8Array,
): TransferVerification {
  return finishTransferProof(core, gens, prepareTransferProof(core, gens, statement, proofBytes));
}
