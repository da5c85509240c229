/**
 * The prover's ring half, after Anonymous Zether (Diamond, "Many-out-of-Many Proofs and Applications to Anonymous
 * Zether"): a one-out-of-many proof (Groth–Kohlweiss bit commitments and index polynomials) that the sender and the
 * receiver are the hidden ring members ℓ₀ and ℓ₁, its many-out-of-many extension over the ring's ciphertexts, and
 * the Σ-protocol that ties them to the sender's key, the blinding r and the range proof's amounts. Steps 2, 3, 4
 * and 6 of docs/cryptography.md § Proof construction; prover.ts runs them in the transcript's order.
 */
import type { Core } from '../core.js';
import type { Generators } from '../curve.js';
import { add, bitsOf, mod, mul, neg, powers, type ScalarSource, sub } from './field.js';
import { concatPoints, GeneratorMsm, Msm, mulSecret } from './points.js';
import { indexPolynomials, indexTensor, nuConvolution, nuWeights } from './poly.js';
import { tagBase, type TransferStatement } from './statement.js';
import type { RoundCommitments, SigmaCommitments, TransferTranscript } from './transcript.js';

/** The masks a and bits b of ℓ₀ ‖ ℓ₁ (m each, low bit first), their blinders and the commitments A, B. */
export interface RingIndexCommitment {
  a: bigint[];
  bits: number[];
  rA: bigint;
  rB: bigint;
  A: Uint8Array;
  B: Uint8Array;
}

/**
 * Step 2, one-out-of-many bit commitments with a₀ = a_m = 0: A = r_A·H + ⟨a, Gs⟩ + ⟨−a² ‖ (a₀a_m, a₀a_m), Hs⟩ and
 * B = r_B·H + ⟨b, Gs⟩ + ⟨a∘(1 − 2b) ‖ (a_(b₀·m), −a_(b_m·m)), Hs⟩; Hs[2m], Hs[2m+1] carry the parity rule.
 */
export function commitToRingIndexBits(
  core: Core,
  gens: Generators,
  m: number,
  senderIndex: number,
  receiverIndex: number,
  random: ScalarSource,
): RingIndexCommitment {
  const a = Array.from({ length: 2 * m }, (_, k) => (k === 0 || k === m ? 0n : random()));
  const bits = [...bitsOf(BigInt(senderIndex), m), ...bitsOf(BigInt(receiverIndex), m)];
  const c = a.map((ak, k) => mul(ak, sub(1n, BigInt(2 * bits[k]!))));
  const d = a.map((ak) => neg(mul(ak, ak)));
  const e = [mul(a[0]!, a[m]!), mul(a[0]!, a[m]!)];
  const parity = [a[bits[0]! * m]!, neg(a[bits[m]! * m]!)];
  const rA = random();
  const rB = random();
  const Am = new GeneratorMsm(core, gens).h(rA);
  const Bm = new GeneratorMsm(core, gens).h(rB);
  for (let k = 0; k < 2 * m; k++) {
    Am.gs(k, a[k]!).hs(k, d[k]!);
    Bm.gs(k, BigInt(bits[k]!)).hs(k, c[k]!);
  }
  for (let k = 0; k < 2; k++) {
    Am.hs(2 * m + k, e[k]!);
    Bm.hs(2 * m + k, parity[k]!);
  }
  return { a, bits, rA, rB, A: Am.run(), B: Bm.run() };
}

/** P[k][j] and Q[k][j] (k < m, j < N): the X^k coefficients of the sender's and the receiver's p_j(X). */
export interface OneOutOfManyPolynomials {
  P: bigint[][];
  Q: bigint[][];
}

/** Step 2, one-out-of-many: p_j(X) = Π_k (j_k ? a_k + b_k·X : −a_k + (1 − b_k)·X), over ℓ₀'s half and ℓ₁'s. */
export function oneOutOfManyPolynomials(index: RingIndexCommitment, m: number): OneOutOfManyPolynomials {
  return {
    P: indexPolynomials(index.a.slice(0, m), index.bits.slice(0, m), m),
    Q: indexPolynomials(index.a.slice(m), index.bits.slice(m), m),
  };
}

/** The random encryptions of zero blinding each round k: φ_k, χ_k, ψ_k under Y_ℓ₀ and ω_k under D. */
export interface RoundBlinders {
  phi: bigint[];
  chi: bigint[];
  psi: bigint[];
  omega: bigint[];
}

/** What the round commitments need of the transfer: who, how much, and the fee and burn F. */
export interface RingTransfer {
  senderIndex: number;
  receiverIndex: number;
  amount: bigint;
  fee: bigint;
}

/**
 * Step 3, Anonymous Zether's round commitments: for k < m, the X^k coefficients of Σ_j p_j(X)·(CLn_j, CRn_j),
 * Σ_j p_j(X)·C_j and Σ_j p_j(X)·Y_j, and of the many-out-of-many amount term, each plus an encryption of zero.
 */
export function commitToRingPolynomials(
  core: Core,
  gens: Generators,
  st: TransferStatement,
  transfer: RingTransfer,
  polynomials: OneOutOfManyPolynomials,
  v: bigint,
  random: ScalarSource,
): { rounds: RoundCommitments; blinders: RoundBlinders } {
  const { G } = gens;
  const Yl = st.ring[transfer.senderIndex]!;
  const nu = nuWeights(v, st.ring.length);
  const rounds: RoundCommitments = { CLnG: [], CRnG: [], C_0G: [], DG: [], y_0G: [], gG: [], C_XG: [], y_XG: [] };
  const blinders: RoundBlinders = { phi: [], chi: [], psi: [], omega: [] };
  for (let k = 0; k < polynomials.P.length; k++) {
    const [phi, chi, psi, omega] = [random(), random(), random(), random()];
    blinders.phi.push(phi);
    blinders.chi.push(chi);
    blinders.psi.push(psi);
    blinders.omega.push(omega);
    const Pk = polynomials.P[k]!;
    const ringSum = (points: readonly Uint8Array[]): Uint8Array => {
      const msm = new Msm();
      points.forEach((point, j) => msm.add(point, Pk[j]!));
      return msm.run(core);
    };
    rounds.CLnG.push(core.g1Add(ringSum(st.CLn), mulSecret(core, Yl, phi)));
    rounds.CRnG.push(core.g1Add(ringSum(st.CRn), mulSecret(core, G, phi)));
    rounds.C_0G.push(core.g1Add(ringSum(st.C), mulSecret(core, Yl, chi)));
    rounds.DG.push(mulSecret(core, G, chi));
    rounds.y_0G.push(core.g1Add(ringSum(st.ring), mulSecret(core, Yl, psi)));
    rounds.gG.push(mulSecret(core, G, psi));
    const X = manyOutOfManyAmountCoefficient(polynomials, nu, k, transfer);
    rounds.C_XG.push(core.g1Add(mulSecret(core, st.D, omega), mulSecret(core, G, X)));
    rounds.y_XG.push(mulSecret(core, G, omega));
  }
  return { rounds, blinders };
}

/**
 * Step 3, many-out-of-many: the X^k coefficient of Σ_i ν_i·(−(a + F)·M_i(X)[ℓ₀ − 2⌊i/2⌋] + a·M_i(X)[ℓ₁ − 2⌊i/2⌋])
 * (indices mod N), M_i = P for even i, Q for odd i: the amount part of C_XG[k].
 */
function manyOutOfManyAmountCoefficient(
  { P, Q }: OneOutOfManyPolynomials,
  nu: readonly bigint[],
  k: number,
  { senderIndex: l0, receiverIndex: l1, amount, fee }: RingTransfer,
): bigint {
  const n = nu.length;
  const debit = mod(-(amount + fee));
  let X = 0n;
  for (let i = 0; i < n; i++) {
    const M = (i % 2 === 0 ? P : Q)[k]!;
    const shift = 2 * Math.floor(i / 2);
    const term = add(mul(debit, M[(((l0 - shift) % n) + n) % n]!), mul(amount, M[(((l1 - shift) % n) + n) % n]!));
    X = add(X, mul(nu[i]!, term));
  }
  return X;
}

/** Step 4, one-out-of-many responses: f = w·b + a and z_A = r_B·w + r_A. */
export function oneOutOfManyResponses(index: RingIndexCommitment, w: bigint): { f: bigint[]; zA: bigint } {
  return {
    f: index.a.map((ak, k) => add(mul(w, BigInt(index.bits[k]!)), ak)),
    zA: add(mul(index.rB, w), index.rA),
  };
}

/** The Σ-protocol's witness and the challenges it builds on. */
export interface SigmaInputs {
  st: TransferStatement;
  /** The sender's secret key, mod n. */
  sk: bigint;
  r: bigint;
  senderIndex: number;
  amount: bigint;
  remaining: bigint;
  /** The range proof's τ_x. */
  tauX: bigint;
  blinders: RoundBlinders;
  f: bigint[];
  v: bigint;
  w: bigint;
  z: bigint;
}

/** The tag u = sk·U, the challenge c and the responses. */
export interface SigmaProof {
  u: Uint8Array;
  c: bigint;
  s_sk: bigint;
  s_r: bigint;
  s_b: bigint;
  s_tau: bigint;
}

/**
 * Step 6, Anonymous Zether's Σ-protocol: commitments A_y, A_D, A_b, A_X, A_t, A_u from random k_sk, k_r, k_b, k_τ,
 * the challenge c, and the responses s_sk = k_sk + c·sk, s_r = k_r + c·r, s_b = k_b + c·W·(a·z² + b′·z³),
 * s_τ = k_τ + c·W·τ_x.
 */
export function sigmaProtocol(
  core: Core,
  gens: Generators,
  transcript: TransferTranscript,
  inputs: SigmaInputs,
  random: ScalarSource,
): SigmaProof {
  const { st, sk, r, w, z } = inputs;
  const m = inputs.f.length / 2;
  const wk = powers(w, m + 1);
  const W = wk[m]!;
  const U = tagBase(core, gens.domain, st.roothash, st.scid, st.scidIndex);
  const nonces = { sk: random(), r: random(), b: random(), tau: random() };
  const c = transcript.sigmaChallenge(sigmaCommitments(core, gens, inputs, wk, U, nonces));
  const cW = mul(c, W);
  const z2 = mul(z, z);
  return {
    u: mulSecret(core, U, sk),
    c,
    s_sk: add(nonces.sk, mul(c, sk)),
    s_r: add(nonces.r, mul(c, r)),
    s_b: add(nonces.b, mul(cW, add(mul(inputs.amount, z2), mul(inputs.remaining, mul(z2, z))))),
    s_tau: add(nonces.tau, mul(cW, inputs.tauX)),
  };
}

/**
 * Step 6, the Σ-protocol's commitments over the accumulated ring sums less their w^k-weighted blinders:
 * A_y = k_sk·(W − ψ̄)·G, A_D = k_r·G, A_b = k_b·G + k_sk·(−z²·DR + z³·CRn̄) with DR = (W·r − χ̄)·G and
 * CRn̄ = W·CRn_ℓ₀ − φ̄·G, A_X = k_r·y_XR with y_XR = Σ_j coef_j·Y_j − ω̄·G, A_t = −k_b·G + k_τ·H, A_u = k_sk·U.
 */
function sigmaCommitments(
  core: Core,
  gens: Generators,
  { st, r, senderIndex, blinders, f, v, w, z }: SigmaInputs,
  wk: readonly bigint[],
  U: Uint8Array,
  k: { sk: bigint; r: bigint; b: bigint; tau: bigint },
): SigmaCommitments {
  const { G, H } = gens;
  const m = f.length / 2;
  const W = wk[m]!;
  const weigh = (values: bigint[]): bigint => values.reduce((acc, value, i) => add(acc, mul(wk[i]!, value)), 0n);
  const coefX = nuConvolution(indexTensor(f, w, m, 0), indexTensor(f, w, m, 1), v);
  const yXR = core.g1Sub(
    new Msm().addMany(concatPoints(st.ring), coefX).run(core),
    mulSecret(core, G, weigh(blinders.omega)),
  );
  const z2 = mul(z, z);
  const z3 = mul(z2, z);
  const kSkZ3 = mul(k.sk, z3);
  const gPart = sub(sub(k.b, mul(mul(k.sk, z2), sub(mul(W, r), weigh(blinders.chi)))), mul(kSkZ3, weigh(blinders.phi)));
  return [
    mulSecret(core, G, mul(k.sk, sub(W, weigh(blinders.psi)))),
    mulSecret(core, G, k.r),
    core.g1Add(mulSecret(core, G, gPart), mulSecret(core, st.CRn[senderIndex]!, mul(kSkZ3, W))),
    mulSecret(core, yXR, k.r),
    core.g1Add(mulSecret(core, G, neg(k.b)), mulSecret(core, H, k.tau)),
    mulSecret(core, U, k.sk),
  ];
}
