/**
 * Arithmetic in Z_n (n = the BN254 group order) on JS BigInt, for the transfer proof's scalar side (scalars go to
 * and from their 32-byte big-endian form with ../bigint-bytes.ts).
 *
 * Every value handled here is kept reduced to [0, n). These functions are the same for both implementations of the
 * Core: the prover and verifier are written once, over the Core interface, and only the point arithmetic differs.
 * Nothing here is constant-time; the prover's secret-dependent scalar work runs on the prover's own machine.
 */
import { randomBytes } from 'node:crypto';
import { readUint256BE } from '../bigint-bytes.js';
import { GROUP_ORDER } from '../scalar.js';

export const N = GROUP_ORDER;

export const mod = (a: bigint): bigint => {
  const r = a % N;
  return r < 0n ? r + N : r;
};
export const add = (a: bigint, b: bigint): bigint => {
  const s = a + b;
  return s >= N ? s - N : s;
};
export const sub = (a: bigint, b: bigint): bigint => {
  const s = a - b;
  return s < 0n ? s + N : s;
};
export const neg = (a: bigint): bigint => (a === 0n ? 0n : N - a);
export const mul = (a: bigint, b: bigint): bigint => (a * b) % N;

/** a^e mod n for e ≥ 0 (square and multiply). */
export function pow(a: bigint, e: bigint | number): bigint {
  let result = 1n;
  let base = mod(a);
  for (let x = BigInt(e); x > 0n; x >>= 1n) {
    if (x & 1n) result = (result * base) % N;
    base = (base * base) % N;
  }
  return result;
}

/** 1/a mod n by the extended Euclidean algorithm; throws for 0 (a challenge of 0 has negligible probability). */
export function inv(a: bigint): bigint {
  let r0 = N;
  let r1 = mod(a);
  if (r1 === 0n) throw new Error('inverse of zero');
  let t0 = 0n;
  let t1 = 1n;
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  return mod(t0);
}

/** [1, a, a², …, a^(count−1)]. */
export function powers(a: bigint, count: number): bigint[] {
  const out = new Array<bigint>(count);
  let v = 1n;
  for (let i = 0; i < count; i++) {
    out[i] = v;
    v = (v * a) % N;
  }
  return out;
}

/** The low `count` bits of a non-negative value, least significant first. */
export const bitsOf = (value: bigint, count: number): number[] =>
  Array.from({ length: count }, (_, i) => Number((value >> BigInt(i)) & 1n));

/** ⟨a, b⟩ mod n. */
export function inner(a: readonly bigint[], b: readonly bigint[]): bigint {
  let s = 0n;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s % N;
}

/** A uniformly random scalar in [1, n − 1] from the system CSPRNG. */
export function randomNonZero(): bigint {
  for (;;) {
    const k = readUint256BE(randomBytes(32)) >> 2n; // n < 2^254: few rejections
    if (k > 0n && k < N) return k;
  }
}

/** A source of random scalars in [1, n − 1]; the prover takes one so that tests can make proofs reproducible. */
export type ScalarSource = () => bigint;

/**
 * A deterministic scalar source (Keccak-256 in counter mode over a seed), for tests and benchmarks that need the
 * same proof bytes from both implementations. Never use it for real transactions.
 */
export function seededScalars(keccak: (data: Uint8Array) => Uint8Array, seed: Uint8Array | string): ScalarSource {
  const seedBytes = typeof seed === 'string' ? new TextEncoder().encode(seed) : seed;
  const block = new Uint8Array(seedBytes.length + 8);
  block.set(seedBytes, 0);
  const view = new DataView(block.buffer, seedBytes.length, 8);
  let counter = 0n;
  return () => {
    for (;;) {
      view.setBigUint64(0, counter++);
      const k = readUint256BE(keccak(block)) >> 2n;
      if (k > 0n && k < N) return k;
    }
  };
}
