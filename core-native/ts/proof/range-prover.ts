/**
 * The prover's Bulletproofs half (Bünz et al., "Bulletproofs", §4.1 the range proof, §4.3 two values aggregated,
 * §3 the inner-product argument): that the amount a and the remaining balance b′ are both in [0, 2^64). Steps
 * 1, 5 and 7 of docs/cryptography.md § Proof construction; prover.ts runs them in the transcript's order.
 */
import type { Core } from '../core.js';
import type { Generators } from '../curve.js';
import { add, bitsOf, inner, inv, mul, powers, type ScalarSource, sub } from './field.js';
import { GeneratorMsm, Msm, mulSecret, negatePoint, pointAt } from './points.js';
import { IPA_ROUNDS, RANGE_BITS } from './serialize.js';
import type { TransferTranscript } from './transcript.js';

const HALF = RANGE_BITS / 2;

/** The bit vectors of a ‖ b′, their blinding vectors, and the commitments to them. */
export interface RangeBits {
  aL: bigint[];
  aR: bigint[];
  sL: bigint[];
  sR: bigint[];
  alpha: bigint;
  rhoS: bigint;
  /** Bulletproofs' A and S. */
  BA: Uint8Array;
  BS: Uint8Array;
}

/** Step 1, Bulletproofs §4.1: A = α·H + ⟨aL, Gs⟩ + ⟨aR, Hs⟩, aR = aL − 1, and S = ρ·H + ⟨s_L, Gs⟩ + ⟨s_R, Hs⟩. */
export function commitToRangeBits(
  core: Core,
  gens: Generators,
  amount: bigint,
  remaining: bigint,
  random: ScalarSource,
): RangeBits {
  const aL = [...bitsOf(amount, HALF), ...bitsOf(remaining, HALF)].map(BigInt);
  const aR = aL.map((bit) => sub(bit, 1n));
  const alpha = random();
  const rhoS = random();
  const BAm = new Msm().add(gens.H, alpha);
  for (let i = 0; i < RANGE_BITS; i++) {
    // ⟨aL, Gs⟩ + ⟨aR, Hs⟩ with aL ∈ {0, 1}, aR = aL − 1: a sum of Gs[i] and −Hs[i].
    if (aL[i] === 1n) BAm.add(pointAt(gens.Gs, i), 1n);
    else BAm.add(negatePoint(pointAt(gens.Hs, i)), 1n);
  }
  const BA = BAm.run(core);
  const sL = Array.from({ length: RANGE_BITS }, random);
  const sR = Array.from({ length: RANGE_BITS }, random);
  const BSm = new GeneratorMsm(core, gens).h(rhoS);
  for (let i = 0; i < RANGE_BITS; i++) BSm.gs(i, sL[i]!).hs(i, sR[i]!);
  return { aL, aR, sL, sR, alpha, rhoS, BA, BS: BSm.run() };
}

/** l(X) = l₀ + s_L·X and r(X) = r₀ + r₁·X as coefficient vectors, and t₁, t₂ of t(X) = ⟨l(X), r(X)⟩. */
export interface RangePolynomial {
  l0: bigint[];
  r0: bigint[];
  r1: bigint[];
  t1: bigint;
  t2: bigint;
}

/**
 * Step 5, Bulletproofs §4.3 with two values: l(X) = (aL − z) + s_L·X, r(X) = y^i∘(aR + z) + twoZ + y^i∘s_R·X,
 * twoZ = (z²·2^i)_(i<64) ‖ (z³·2^i)_(i<64), and t₁, t₂ of t(X) = ⟨l(X), r(X)⟩ = t₀ + t₁·X + t₂·X².
 */
export function rangePolynomial(bits: RangeBits, y: bigint, z: bigint): RangePolynomial {
  const ys = powers(y, RANGE_BITS);
  const z2 = mul(z, z);
  const z3 = mul(z2, z);
  const l0 = bits.aL.map((bit) => sub(bit, z));
  const r0 = new Array<bigint>(RANGE_BITS);
  const r1 = new Array<bigint>(RANGE_BITS);
  let two = z2;
  for (let i = 0; i < RANGE_BITS; i++) {
    if (i === HALF) two = z3;
    r0[i] = add(mul(ys[i]!, add(bits.aR[i]!, z)), two);
    r1[i] = mul(ys[i]!, bits.sR[i]!);
    two = add(two, two);
  }
  const t1 = add(inner(l0, r1), inner(bits.sL, r0));
  return { l0, r0, r1, t1, t2: inner(bits.sL, r1) };
}

/** The commitments to t(X)'s coefficients and their blinders. */
export interface RangePolynomialCommitment {
  tau1: bigint;
  tau2: bigint;
  T1: Uint8Array;
  T2: Uint8Array;
}

/** Step 5, Bulletproofs §4.1: T_i = t_i·G + τ_i·H for i = 1, 2. */
export function commitToRangePolynomial(
  core: Core,
  gens: Generators,
  polynomial: RangePolynomial,
  random: ScalarSource,
): RangePolynomialCommitment {
  const tau1 = random();
  const tau2 = random();
  const T1 = core.g1Add(mulSecret(core, gens.G, polynomial.t1), mulSecret(core, gens.H, tau1));
  const T2 = core.g1Add(mulSecret(core, gens.G, polynomial.t2), mulSecret(core, gens.H, tau2));
  return { tau1, tau2, T1, T2 };
}

/** The range polynomial opened at the challenge x. */
export interface RangeEvaluation {
  l: bigint[];
  r: bigint[];
  that: bigint;
  tauX: bigint;
  mu: bigint;
}

/** Step 5, Bulletproofs §4.1: l = l(x), r = r(x), t̂ = ⟨l, r⟩, τ_x = τ₁·x + τ₂·x² and μ = α + ρ·x. */
export function evaluateRangePolynomial(
  bits: RangeBits,
  polynomial: RangePolynomial,
  commitment: RangePolynomialCommitment,
  x: bigint,
): RangeEvaluation {
  const l = polynomial.l0.map((coefficient, i) => add(coefficient, mul(bits.sL[i]!, x)));
  const r = polynomial.r0.map((coefficient, i) => add(coefficient, mul(polynomial.r1[i]!, x)));
  return {
    l,
    r,
    that: inner(l, r),
    tauX: add(mul(commitment.tau1, x), mul(commitment.tau2, mul(x, x))),
    mu: add(bits.alpha, mul(bits.rhoS, x)),
  };
}

/** What the inner-product argument adds to the proof: the final a, b and every round's L, R. */
export interface InnerProductProof {
  a: bigint;
  b: bigint;
  L: Uint8Array[];
  R: Uint8Array[];
}

/**
 * Step 7, Bulletproofs §3 (Protocol 2, with Protocol 1's extra base u = o·H): the logarithmic argument for ⟨a, b⟩
 * over Gs and H′_i = hScale_i·Hs[i]. The generators are never folded: each original generator carries the product
 * of the challenges folded into it so far, so L_j and R_j are MSMs over 128 Gs, 128 Hs and H.
 */
export function innerProductArgument(
  core: Core,
  gens: Generators,
  transcript: TransferTranscript,
  aIn: bigint[],
  bIn: bigint[],
  hScale: bigint[],
  o: bigint,
): InnerProductProof {
  let a = aIn;
  let b = bIn;
  const gcoef = new Array<bigint>(RANGE_BITS).fill(1n);
  const hcoef = hScale.slice();
  const Ls: Uint8Array[] = [];
  const Rs: Uint8Array[] = [];
  for (let j = 0; j < IPA_ROUNDS; j++) {
    const { L, R } = commitToCrossTerms(core, gens, a, b, gcoef, hcoef, o);
    Ls.push(L);
    Rs.push(R);
    const x = transcript.innerProductRound(L, R);
    const xInv = inv(x);
    const n = a.length;
    const half = n / 2;
    for (let t = 0; t < RANGE_BITS; t++) {
      const lo = t % n < half;
      gcoef[t] = mul(gcoef[t]!, lo ? xInv : x);
      hcoef[t] = mul(hcoef[t]!, lo ? x : xInv);
    }
    const nextA = new Array<bigint>(half);
    const nextB = new Array<bigint>(half);
    for (let i = 0; i < half; i++) {
      nextA[i] = add(mul(x, a[i]!), mul(xInv, a[half + i]!));
      nextB[i] = add(mul(xInv, b[i]!), mul(x, b[half + i]!));
    }
    a = nextA;
    b = nextB;
  }
  return { a: a[0]!, b: b[0]!, L: Ls, R: Rs };
}

/**
 * One round of Protocol 2: L = ⟨a_lo, G_hi⟩ + ⟨b_hi, H_lo⟩ + ⟨a_lo, b_hi⟩·u and R = ⟨a_hi, G_lo⟩ + ⟨b_lo, H_hi⟩ +
 * ⟨a_hi, b_lo⟩·u, the folded generators written as the original ones times gcoef, hcoef.
 */
function commitToCrossTerms(
  core: Core,
  gens: Generators,
  a: readonly bigint[],
  b: readonly bigint[],
  gcoef: readonly bigint[],
  hcoef: readonly bigint[],
  o: bigint,
): { L: Uint8Array; R: Uint8Array } {
  const n = a.length;
  const half = n / 2;
  const cL = inner(a.slice(0, half), b.slice(half));
  const cR = inner(a.slice(half), b.slice(0, half));
  const Lm = new GeneratorMsm(core, gens).h(mul(cL, o));
  const Rm = new GeneratorMsm(core, gens).h(mul(cR, o));
  for (let t = 0; t < RANGE_BITS; t++) {
    const i = t % n;
    if (i >= half) {
      Lm.gs(t, mul(a[i - half]!, gcoef[t]!)); // ⟨a_lo, G_hi⟩
      Rm.hs(t, mul(b[i - half]!, hcoef[t]!)); // ⟨b_lo, H_hi⟩
    } else {
      Lm.hs(t, mul(b[half + i]!, hcoef[t]!)); // ⟨b_hi, H_lo⟩
      Rm.gs(t, mul(a[half + i]!, gcoef[t]!)); // ⟨a_hi, G_lo⟩
    }
  }
  return { L: Lm.run(), R: Rm.run() };
}
