/**
 * The scalar machinery of the many-out-of-many ring proof (docs/cryptography.md § Proof construction), for a ring of N = 2^m:
 *
 * - index tensors: p_j = Π_{k<m} (bit k of j ? f_k : w − f_k), built in N − 1 multiplications by doubling;
 * - index polynomials: the coefficients P[k][j] (k < m) of p_j(X) = Π_k (j_k ? a_k + b_k·X : −a_k + (1 − b_k)·X);
 * - the ν-weighted even-shift convolution that C_XR and y_XR reduce to.
 *
 * The convolution. With Conv(e, V)[k] = Σ_i e_i·V[(i + 2k) mod N] and ν_0 = 1, ν_i = v^(i−1),
 *   Σ_{i<N} ν_i·Conv(i even ? p : q, V)[⌊i/2⌋] = Σ_j coef_j·V_j,
 *   coef_j = Σ_{k<N/2} ν_{2k}·p_{(j−2k) mod N} + ν_{2k+1}·q_{(j−2k) mod N}.
 * Directly that is N² multiplications (16 384 for N = 128). The weights are geometric, so it takes O(N): for
 * T^e_j = Σ_{k<N/2} v^(2k)·e_{(j−2k) mod N} the window slides by two with
 *   T^e_{j+2} = v²·T^e_j + (1 − v^N)·e_{(j+2) mod N},
 * the q part is T^q_j (ν_{2k+1} = v^(2k)), and the p part (ν_0 = 1, ν_{2k} = v^(2k−1)) is
 *   (1 − v^(N−1))·p_j + v·T^p_{(j−2) mod N}.
 * `nuConvolutionDirect` is the defining sum; the tests check that both agree.
 */
import { add, mul, N as ORDER, neg, pow, sub } from './field.js';

/** p_j for j < 2^m from the 2m-vector f: `half` 0 uses f[0..m) (the p side), 1 uses f[m..2m) (the q side). */
export function indexTensor(f: readonly bigint[], w: bigint, m: number, half: 0 | 1): bigint[] {
  let values = [1n];
  for (let k = 0; k < m; k++) {
    const one = f[half * m + k]!;
    const zero = sub(w, one);
    const next = new Array<bigint>(values.length * 2);
    for (let j = 0; j < values.length; j++) {
      next[j] = mul(values[j]!, zero);
      next[j + values.length] = mul(values[j]!, one);
    }
    values = next;
  }
  return values;
}

/**
 * P[k][j], k < m, j < 2^m: the low coefficients of p_j(X) for the index bits `bits` (0/1) and the blinders `a`
 * (both of length m, least significant bit first). The X^m coefficient, [j = the encoded index], is not returned.
 */
export function indexPolynomials(a: readonly bigint[], bits: readonly number[], m: number): bigint[][] {
  // polys[j] holds the m + 1 coefficients of the product over the bits seen so far.
  let polys: bigint[][] = [[1n, ...new Array<bigint>(m).fill(0n)]];
  for (let k = 0; k < m; k++) {
    const b = bits[k]!;
    const ak = a[k]!;
    const factors: [bigint, number][] = [
      [neg(ak), 1 - b], // bit 0: −a_k + (1 − b_k)·X
      [ak, b], // bit 1: a_k + b_k·X
    ];
    const next = new Array<bigint[]>(polys.length * 2);
    for (let bit = 0; bit < 2; bit++) {
      const [c0, c1] = factors[bit]!;
      for (let j = 0; j < polys.length; j++) {
        const src = polys[j]!;
        const out = new Array<bigint>(m + 1).fill(0n);
        for (let d = 0; d <= k; d++) {
          const s = src[d]!;
          if (s === 0n) continue;
          out[d] = add(out[d]!, mul(s, c0));
          if (c1 === 1) out[d + 1] = add(out[d + 1]!, s);
        }
        next[j + bit * polys.length] = out;
      }
    }
    polys = next;
  }
  return Array.from({ length: m }, (_, k) => polys.map((poly) => poly[k]!));
}

/** T^e_j = Σ_{k<N/2} v2^k·e_{(j−2k) mod N} for every j, by the sliding recurrence. */
function evenWindowSums(e: readonly bigint[], v2: bigint, vN: bigint): bigint[] {
  const n = e.length;
  const out = new Array<bigint>(n);
  for (let start = 0; start < Math.min(2, n); start++) {
    let s = 0n;
    let weight = 1n;
    for (let k = 0; k < n / 2; k++) {
      s += weight * e[(((start - 2 * k) % n) + n) % n]!;
      weight = mul(weight, v2);
    }
    out[start] = s % ORDER;
  }
  const factor = sub(1n, vN);
  for (let j = 0; j + 2 < n; j++) out[j + 2] = add(mul(v2, out[j]!), mul(factor, e[j + 2]!));
  return out;
}

/** coef_j of the ν-weighted even-shift convolution of p and q (see the file comment), in O(N). */
export function nuConvolution(p: readonly bigint[], q: readonly bigint[], v: bigint): bigint[] {
  const n = p.length;
  const v2 = mul(v, v);
  const vN = pow(v, n);
  const vN1 = pow(v, n - 1);
  const tp = evenWindowSums(p, v2, vN);
  const tq = evenWindowSums(q, v2, vN);
  const keep = sub(1n, vN1);
  return Array.from({ length: n }, (_, j) => add(add(mul(keep, p[j]!), mul(v, tp[(j - 2 + n) % n]!)), tq[j]!));
}

/** The ν weights: ν_0 = 1, ν_i = v^(i−1). */
export function nuWeights(v: bigint, n: number): bigint[] {
  const out = new Array<bigint>(n);
  let x = 1n;
  for (let i = 0; i < n; i++) {
    out[i] = i === 0 ? 1n : x;
    if (i > 0) x = mul(x, v);
  }
  return out;
}

/** The defining O(N²) sum of `nuConvolution` (tests only). */
export function nuConvolutionDirect(p: readonly bigint[], q: readonly bigint[], v: bigint): bigint[] {
  const n = p.length;
  const nu = nuWeights(v, n);
  const coef = new Array<bigint>(n).fill(0n);
  for (let i = 0; i < n; i++) {
    const e = i % 2 === 0 ? p : q;
    const shift = 2 * Math.floor(i / 2);
    for (let t = 0; t < n; t++) coef[(t + shift) % n] = add(coef[(t + shift) % n]!, mul(nu[i]!, e[t]!));
  }
  return coef;
}
