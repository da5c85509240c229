/** The proof's scalar helpers against their defining formulas (docs/cryptography.md § Proof construction). */
import t from 'tap';
import { add, inv, mul, N, powers, seededScalars } from '../../../core-native/ts/proof/field.js';
import {
  indexPolynomials,
  indexTensor,
  nuConvolution,
  nuConvolutionDirect,
  nuWeights,
} from '../../../core-native/ts/proof/poly.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { batchInvert } from '../../../core-native/ts/proof/verifier.js';

const random = seededScalars(keccak_256, 'poly');

t.test('the O(N) ν-convolution equals the defining O(N²) sum for every ring size', async (t) => {
  for (let m = 1; m <= 7; m++) {
    const n = 1 << m;
    const p = Array.from({ length: n }, random);
    const q = Array.from({ length: n }, random);
    const v = random();
    t.same(nuConvolution(p, q, v), nuConvolutionDirect(p, q, v), `N = ${n}`);
  }
  t.same(nuWeights(5n, 4), [1n, 1n, 5n, 25n], 'ν = 1, 1, v, v², … (one power skipped)');
});

t.test(
  'index polynomials: evaluated at w they give the tensor of f = w·b + a, and the top coefficient selects ℓ',
  async (t) => {
    for (const [m, l] of [
      [1, 1],
      [3, 5],
      [7, 100],
    ] as const) {
      const n = 1 << m;
      const a = Array.from({ length: m }, (_, k) => (k === 0 ? 0n : random()));
      const bits = Array.from({ length: m }, (_, k) => (l >> k) & 1);
      const P = indexPolynomials(a, bits, m);
      const w = random();
      const f = a.map((ak, k) => add(mul(w, BigInt(bits[k]!)), ak));
      const tensor = indexTensor(f, w, m, 0);
      const wk = powers(w, m + 1);
      const evaluated = Array.from({ length: n }, (_, j) => {
        let s = j === l ? wk[m]! : 0n;
        for (let k = 0; k < m; k++) s = add(s, mul(wk[k]!, P[k]![j]!));
        return s;
      });
      t.same(evaluated, tensor, `m = ${m}, ℓ = ${l}`);
    }
  },
);

t.test('inverses', async (t) => {
  const values = Array.from({ length: 9 }, random);
  t.same(batchInvert(values), values.map(inv));
  t.equal(mul(inv(N - 1n), N - 1n), 1n);
  t.throws(() => inv(0n), /inverse of zero/);
});
