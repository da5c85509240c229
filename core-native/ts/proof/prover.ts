/**
 * The transfer-proof prover (docs/cryptography.md § Proof construction), over the Core interface: the native and the fallback core
 * run this same code, so with the same randomness they produce the same bytes.
 *
 * The prover first checks its witness against the statement and refuses, with a clear `ProofError`, to prove
 * anything false — above all a transfer that spends more than the sender's balance (the range proof could not be
 * made anyway, but the caller deserves to know why).
 *
 * Timing: single multiplications by secrets (keys, blinders, Σ-protocol nonces, amounts) use the Core's
 * constant-time `g1MulSecret`. The multi-scalar multiplications whose scalars depend on the witness (the range
 * commitments, the index polynomials, the inner-product rounds) use the variable-time MSM, as the reference does;
 * a wallet proves on its own machine, where timing is not observable to the network.
 */
import type { Core } from '../core.js';
import { UmbraError } from '../errors.js';
import type { Generators } from '../curve.js';
import { bigintToBytes32BE, readUint256BE } from '../bigint-bytes.js';
import { add, inner, inv, mod, mul, N, neg, powers, randomNonZero, sub, type ScalarSource } from './field.js';
import { GeneratorMsm, Msm, negatePoint, pointAt } from './points.js';
import { indexPolynomials, indexTensor, nuConvolution, nuWeights } from './poly.js';
import { encodeTransferProof, IPA_ROUNDS, RANGE_BITS, type TransferProof } from './serialize.js';
import { ProofErrorCode } from './proof-errors.js';
import { checkStatementShape, MAX_AMOUNT, StatementError, tagBase, type TransferStatement } from './statement.js';
import { TransferTranscript } from './transcript.js';

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

export interface ProveOptions {
  /** Source of the proof's random scalars (default: the system CSPRNG). Fixed only for tests and benchmarks. */
  random?: ScalarSource;
}

/** The prover refuses to prove: the statement is malformed, or the witness does not make it true. */
export class ProofError extends UmbraError<ProofErrorCode> {
  override readonly name = 'ProofError';
}

const HALF = RANGE_BITS / 2;

const bitsOf = (value: bigint, count: number): number[] =>
  Array.from({ length: count }, (_, i) => Number((value >> BigInt(i)) & 1n));

function equalPoints(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Checks the witness against the statement; returns the remaining balance b′. */
function checkWitness(core: Core, gens: Generators, st: TransferStatement, wit: TransferWitness, n: number): bigint {
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

/** Proves a transfer; returns the serialised proof (1013 + 328·log2 N bytes). */
export function proveTransfer(
  core: Core,
  gens: Generators,
  st: TransferStatement,
  wit: TransferWitness,
  options: ProveOptions = {},
): Uint8Array {
  let m: number;
  try {
    m = checkStatementShape(st);
  } catch (error) {
    if (!(error instanceof StatementError)) throw error;
    throw new ProofError(ProofErrorCode.BadStatement, error.message, { cause: error });
  }
  const n = 1 << m;
  const remaining = checkWitness(core, gens, st, wit, n);
  const random = options.random ?? randomNonZero;
  const { G, H, Gs, Hs } = gens;
  const l0 = wit.senderIndex;
  const l1 = wit.receiverIndex;
  const amount = wit.amount;
  const F = st.fee + st.burn;
  const sk = mod(readUint256BE(wit.sk));
  const r = wit.r;
  const mulG = (k: bigint): Uint8Array => core.g1MulSecret(G, bigintToBytes32BE(mod(k)));

  // 1. Range-proof commitments over the bits of the amount and of the remaining balance.
  const aL = [...bitsOf(amount, HALF), ...bitsOf(remaining, HALF)].map(BigInt);
  const aR = aL.map((bit) => sub(bit, 1n));
  const alpha = random();
  const rhoS = random();
  const BAm = new Msm().add(H, alpha);
  for (let i = 0; i < RANGE_BITS; i++) {
    // ⟨aL, Gs⟩ + ⟨aR, Hs⟩ with aL ∈ {0, 1}, aR = aL − 1: a sum of Gs[i] and −Hs[i].
    if (aL[i] === 1n) BAm.add(pointAt(Gs, i), 1n);
    else BAm.add(negatePoint(pointAt(Hs, i)), 1n);
  }
  const BA = BAm.run(core);
  const sL = Array.from({ length: RANGE_BITS }, random);
  const sR = Array.from({ length: RANGE_BITS }, random);
  const BSm = new GeneratorMsm(core, gens).h(rhoS);
  for (let i = 0; i < RANGE_BITS; i++) BSm.gs(i, sL[i]!).hs(i, sR[i]!);
  const BS = BSm.run();

  // 2. Index commitments: a random except a_0 = a_m = 0, b the bits of ℓ0 and ℓ1.
  const aIdx = Array.from({ length: 2 * m }, (_, k) => (k === 0 || k === m ? 0n : random()));
  const bIdx = [...bitsOf(BigInt(l0), m), ...bitsOf(BigInt(l1), m)];
  const cIdx = aIdx.map((a, k) => mul(a, sub(1n, BigInt(2 * bIdx[k]!))));
  const dIdx = aIdx.map((a) => neg(mul(a, a)));
  const eIdx = [mul(aIdx[0]!, aIdx[m]!), mul(aIdx[0]!, aIdx[m]!)];
  const fIdx = [aIdx[bIdx[0]! * m]!, neg(aIdx[bIdx[m]! * m]!)];
  const rA = random();
  const rB = random();
  const Am = new GeneratorMsm(core, gens).h(rA);
  const Bm = new GeneratorMsm(core, gens).h(rB);
  for (let k = 0; k < 2 * m; k++) {
    Am.gs(k, aIdx[k]!).hs(k, dIdx[k]!);
    Bm.gs(k, BigInt(bIdx[k]!)).hs(k, cIdx[k]!);
  }
  for (let k = 0; k < 2; k++) {
    Am.hs(2 * m + k, eIdx[k]!);
    Bm.hs(2 * m + k, fIdx[k]!);
  }
  const A = Am.run();
  const B = Bm.run();

  // 3. v.
  const transcript = new TransferTranscript(core, st.txid);
  const v = transcript.indexChallenge({ BA, BS, A, B });

  // 4–5. Index polynomials and the per-round commitments with their ElGamal blinders.
  const P = indexPolynomials(aIdx.slice(0, m), bIdx.slice(0, m), m);
  const Q = indexPolynomials(aIdx.slice(m), bIdx.slice(m), m);
  const Yl = st.ring[l0]!;
  const nu = nuWeights(v, n);
  const debit = mod(-(amount + F));
  const rounds = {
    CLnG: [] as Uint8Array[],
    CRnG: [] as Uint8Array[],
    C_0G: [] as Uint8Array[],
    DG: [] as Uint8Array[],
    y_0G: [] as Uint8Array[],
    gG: [] as Uint8Array[],
    C_XG: [] as Uint8Array[],
    y_XG: [] as Uint8Array[],
  };
  const phi: bigint[] = [];
  const chi: bigint[] = [];
  const psi: bigint[] = [];
  const omega: bigint[] = [];
  for (let k = 0; k < m; k++) {
    const [rPhi, rChi, rPsi, rOmega] = [random(), random(), random(), random()];
    phi.push(rPhi);
    chi.push(rChi);
    psi.push(rPsi);
    omega.push(rOmega);
    const Pk = P[k]!;
    const combo = (points: Uint8Array[]): Msm => {
      const msm = new Msm();
      for (let j = 0; j < n; j++) msm.add(points[j]!, Pk[j]!);
      return msm;
    };
    rounds.CLnG.push(core.g1Add(combo(st.CLn).run(core), core.g1MulSecret(Yl, bigintToBytes32BE(rPhi))));
    rounds.CRnG.push(core.g1Add(combo(st.CRn).run(core), mulG(rPhi)));
    rounds.C_0G.push(core.g1Add(combo(st.C).run(core), core.g1MulSecret(Yl, bigintToBytes32BE(rChi))));
    rounds.DG.push(mulG(rChi));
    rounds.y_0G.push(core.g1Add(combo(st.ring).run(core), core.g1MulSecret(Yl, bigintToBytes32BE(rPsi))));
    rounds.gG.push(mulG(rPsi));
    let X = 0n;
    for (let i = 0; i < n; i++) {
      const M = (i % 2 === 0 ? P : Q)[k]!;
      const shift = 2 * Math.floor(i / 2);
      const term = add(mul(debit, M[(((l0 - shift) % n) + n) % n]!), mul(amount, M[(((l1 - shift) % n) + n) % n]!));
      X = add(X, mul(nu[i]!, term));
    }
    rounds.C_XG.push(core.g1Add(core.g1MulSecret(st.D, bigintToBytes32BE(rOmega)), mulG(X)));
    rounds.y_XG.push(mulG(rOmega));
  }

  // 6. w.
  const w = transcript.roundChallenge(rounds);
  const f = aIdx.map((a, k) => add(mul(w, BigInt(bIdx[k]!)), a));
  const zA = add(mul(rB, w), rA);
  const wk = powers(w, m + 1);
  const W = wk[m]!;

  // 7. The range polynomial t(X) = ⟨l(X), r(X)⟩.
  const { y, z } = transcript.rangeChallenges();
  const ys = powers(y, RANGE_BITS);
  const z2 = mul(z, z);
  const z3 = mul(z2, z);
  const l0v = aL.map((bit) => sub(bit, z));
  const r0v = new Array<bigint>(RANGE_BITS);
  const r1v = new Array<bigint>(RANGE_BITS);
  let two = z2;
  for (let i = 0; i < RANGE_BITS; i++) {
    if (i === HALF) two = z3;
    r0v[i] = add(mul(ys[i]!, add(aR[i]!, z)), two);
    r1v[i] = mul(ys[i]!, sR[i]!);
    two = add(two, two);
  }
  const t1 = add(inner(l0v, r1v), inner(sL, r0v));
  const t2 = inner(sL, r1v);
  const tau1 = random();
  const tau2 = random();
  const T1 = core.g1Add(mulG(t1), core.g1MulSecret(H, bigintToBytes32BE(tau1)));
  const T2 = core.g1Add(mulG(t2), core.g1MulSecret(H, bigintToBytes32BE(tau2)));
  const x = transcript.polynomialChallenge(T1, T2);
  const lx = l0v.map((l, i) => add(l, mul(sL[i]!, x)));
  const rx = r0v.map((rv, i) => add(rv, mul(r1v[i]!, x)));
  const that = inner(lx, rx);
  const tauX = add(mul(tau1, x), mul(tau2, mul(x, x)));
  const mu = add(alpha, mul(rhoS, x));

  // 8. The Σ-protocol.
  const weigh = (values: bigint[]): bigint => values.reduce((acc, value, k) => add(acc, mul(wk[k]!, value)), 0n);
  const phiBar = weigh(phi);
  const chiBar = weigh(chi);
  const psiBar = weigh(psi);
  const omegaBar = weigh(omega);
  const p = indexTensor(f, w, m, 0);
  const q = indexTensor(f, w, m, 1);
  const coefX = nuConvolution(p, q, v);
  const yXR = core.g1Sub(new Msm().addMany(concat(st.ring), coefX).run(core), mulG(omegaBar));
  const U = tagBase(core, gens.domain, st.roothash, st.scid, st.scidIndex);
  const u = core.g1MulSecret(U, bigintToBytes32BE(sk));
  const kSk = random();
  const kR = random();
  const kB = random();
  const kTau = random();
  const Ay = mulG(mul(kSk, sub(W, psiBar)));
  const AD = mulG(kR);
  // k_b·G + k_sk·(−z²·DR + z³·CRn̄), DR = (W·r − χ̄)·G, CRn̄ = W·CRn_ℓ0 − φ̄·G.
  const gPart = sub(sub(kB, mul(mul(kSk, z2), sub(mul(W, r), chiBar))), mul(mul(kSk, z3), phiBar));
  const Ab = core.g1Add(mulG(gPart), core.g1MulSecret(st.CRn[l0]!, bigintToBytes32BE(mul(mul(kSk, z3), W))));
  const AX = core.g1MulSecret(yXR, bigintToBytes32BE(kR));
  const At = core.g1Add(mulG(neg(kB)), core.g1MulSecret(H, bigintToBytes32BE(kTau)));
  const Au = core.g1MulSecret(U, bigintToBytes32BE(kSk));
  const c = transcript.sigmaChallenge([Ay, AD, Ab, AX, At, Au]);
  const cW = mul(c, W);
  const s_sk = add(kSk, mul(c, sk));
  const s_r = add(kR, mul(c, r));
  const s_b = add(kB, mul(cW, add(mul(amount, z2), mul(remaining, z3))));
  const s_tau = add(kTau, mul(cW, tauX));

  // 9. The inner-product argument.
  const o = transcript.innerProductBase();
  const ipa = proveInnerProduct(core, gens, transcript, lx, rx, powers(inv(y), RANGE_BITS), o);

  const proof: TransferProof = {
    m,
    BA,
    BS,
    A,
    B,
    ...rounds,
    u,
    f,
    zA,
    T1,
    T2,
    that,
    mu,
    c,
    s_sk,
    s_r,
    s_b,
    s_tau,
    ipaA: ipa.a,
    ipaB: ipa.b,
    L: ipa.L,
    R: ipa.R,
  };
  return encodeTransferProof(core, proof);
}

function concat(points: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(points.length * 64);
  points.forEach((p, i) => out.set(p, i * 64));
  return out;
}

/**
 * The logarithmic inner-product argument for ⟨a, b⟩ with G-vector Gs, H-vector H′_i = hScale_i·Hs[i] and u-base
 * o·H (docs/cryptography.md § Proof construction). The generators are never folded: each original generator carries the product
 * of the challenges folded into it so far, so L_j and R_j are MSMs over 64 Gs, 64 Hs and H.
 */
function proveInnerProduct(
  core: Core,
  gens: Generators,
  transcript: TransferTranscript,
  aIn: bigint[],
  bIn: bigint[],
  hScale: bigint[],
  o: bigint,
): { a: bigint; b: bigint; L: Uint8Array[]; R: Uint8Array[] } {
  let a = aIn;
  let b = bIn;
  const gcoef = new Array<bigint>(RANGE_BITS).fill(1n);
  const hcoef = hScale.slice();
  const Ls: Uint8Array[] = [];
  const Rs: Uint8Array[] = [];
  for (let j = 0; j < IPA_ROUNDS; j++) {
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
    const L = Lm.run();
    const R = Rm.run();
    Ls.push(L);
    Rs.push(R);
    const x = transcript.innerProductRound(L, R);
    const xInv = inv(x);
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
