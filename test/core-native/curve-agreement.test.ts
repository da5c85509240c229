/** Native and fallback BN254 agree byte for byte on thousands of random and edge-case inputs. */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import type { Core } from '../../core-native/ts/core.js';
import type { CurveCore } from '../../core-native/ts/curve.js';
import { loadCore } from '../../core-native/ts/index.js';
import { nativeMissing } from '../helpers/core-impls.js';

type CurveImpl = Core & CurveCore;
const N = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const INFINITY = new Uint8Array(64);

/** The result, or the fact that it threw (both must throw on the same inputs). */
const outcome = (f: () => Uint8Array | boolean): string => {
  try {
    const r = f();
    return typeof r === 'boolean' ? String(r) : hex(r);
  } catch {
    return 'throws';
  }
};

const fallback = (await loadCore({ impl: 'fallback' })) as CurveImpl;
const skip =
  nativeMissing() ??
  (typeof fallback.g1Mul === 'function'
    ? undefined
    : 'the fallback curve (core-native/ts/fallback/curve.ts) is not assembled yet');

t.test('native and fallback BN254 agree', { skip }, async (t) => {
  const native = (await loadCore({ impl: 'native' })) as CurveImpl;
  const points = Array.from({ length: 200 }, () => native.hashToPoint(randomBytes(12)));
  const scalars = [0n, 1n, 2n, N - 1n, N, N + 1n, (1n << 256n) - 1n].map(bigintToBytes32BE);
  for (let i = 0; i < 150; i++) scalars.push(randomBytes(32));

  const compare = (
    t: any,
    label: string,
    inputs: unknown[][],
    f: (c: CurveImpl, ...args: any[]) => Uint8Array | boolean,
  ): void => {
    const mismatches = inputs.filter(
      (args) => outcome(() => f(native, ...args)) !== outcome(() => f(fallback, ...args)),
    );
    t.equal(mismatches.length, 0, `${label}: ${inputs.length} inputs agree`);
  };

  t.test('HashToPoint and generators', async (t) => {
    compare(
      t,
      'hashToPoint',
      Array.from({ length: 300 }, (_, i) => [randomBytes(i % 70)]),
      (c, d) => c.hashToPoint(d),
    );
    for (const domain of ['UMBRA', 'DERO', '']) {
      const [a, b] = [native.generators(domain), fallback.generators(domain)];
      t.equal(
        hex(Buffer.concat([a.G, a.H, a.Gs, a.Hs, a.GSUM])),
        hex(Buffer.concat([b.G, b.H, b.Gs, b.Hs, b.GSUM])),
        `generators(${JSON.stringify(domain)})`,
      );
    }
  });

  t.test('group law, including doubling, opposites and infinity', async (t) => {
    const pairs: Uint8Array[][] = [];
    for (let i = 0; i < 1000; i++) pairs.push([points[i % 200]!, points[(i * 7 + 3) % 200]!]);
    for (const p of points.slice(0, 20)) pairs.push([p, p], [p, native.g1Neg(p)], [p, INFINITY], [INFINITY, p]);
    compare(t, 'g1Add', pairs, (c, a, b) => c.g1Add(a, b));
    compare(t, 'g1Sub', pairs, (c, a, b) => c.g1Sub(a, b));
    compare(t, 'g1Neg', [...points.map((p) => [p]), [INFINITY]], (c, p) => c.g1Neg(p));
  });

  t.test('multiplications', async (t) => {
    const inputs = scalars.map((k, i) => [points[i % 200]!, k]);
    compare(t, 'g1Mul', inputs, (c, p, k) => c.g1Mul(p, k));
    compare(t, 'g1MulSecret', inputs, (c, p, k) => c.g1MulSecret(p, k));
    const base = points[0]!;
    const [nf, ff] = [native.g1FixedBase(base), fallback.g1FixedBase(base)];
    t.equal(
      scalars.filter((k) => hex(nf.mul(k)) !== hex(ff.mul(k))).length,
      0,
      `fixed base: ${scalars.length} scalars agree`,
    );
    t.equal(
      hex(native.g1Mul(INFINITY, scalars[9]!)),
      hex(fallback.g1Mul(INFINITY, scalars[9]!)),
      'multiples of infinity',
    );
  });

  t.test('multi-scalar multiplication', async (t) => {
    for (const n of [0, 1, 2, 5, 64, 130]) {
      const pts = Buffer.concat(points.slice(0, n));
      const ks = Buffer.concat(scalars.slice(0, n));
      t.equal(hex(native.g1Msm(pts, ks)), hex(fallback.g1Msm(pts, ks)), `msm of ${n}`);
    }
  });

  t.test('encodings: compression, strict decompression and validity', async (t) => {
    compare(t, 'g1Compress', [...points.map((p) => [p]), [INFINITY]], (c, p) => c.g1Compress(p));
    const compressed = points.map((p) => native.g1Compress(p));
    const inputs: Uint8Array[][] = compressed.map((c) => [c]);
    for (let i = 0; i < 1000; i++) {
      const c = Uint8Array.from(compressed[i % 200]!);
      if (i % 3 === 0)
        c[32] = i % 256; // bad flags
      else if (i % 3 === 1)
        c.set(randomBytes(32)); // random x: about half have no point
      else c.set(randomBytes(32).fill(0xff, 0, 2)); // x ≥ p
      inputs.push([c]);
    }
    compare(t, 'g1Decompress', inputs, (c, x) => c.g1Decompress(x));
    const candidates: Uint8Array[][] = points.map((p) => [p]);
    for (let i = 0; i < 500; i++) {
      const p = Uint8Array.from(points[i % 200]!);
      p[32 + (i % 32)]! ^= 1 << (i % 8); // off the curve
      candidates.push([p], [randomBytes(64)], [randomBytes(i % 70)]);
    }
    candidates.push([INFINITY]);
    compare(t, 'g1IsValid', candidates, (c, p) => c.g1IsValid(p));
  });
});
