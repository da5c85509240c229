/**
 * The constant-time multiplication (g1MulSecret, for secret scalars) equals the variable-time one (g1Mul) on every
 * implementation, for random scalars and the edges of a fixed-window method: 0, 1, small values, values with one
 * high bit and zero windows below it, all-ones windows, n − 1, and inputs ≥ n (reduced first); and native and
 * fallback give the same bytes.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { bigintFromBytesBE, bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { loadAddon } from '../../core-native/ts/native.js';
import { GROUP_ORDER as N } from '../../core-native/ts/scalar.js';
import { bothCores, forEachCore, nativeMissing } from '../helpers/core-impls.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const INFINITY = new Uint8Array(64);

const EDGES: bigint[] = [
  0n,
  1n,
  2n,
  3n,
  15n,
  16n,
  17n,
  255n,
  256n,
  0xffff_ffffn,
  1n << 64n,
  (1n << 128n) + 1n,
  1n << 252n,
  0x30n << 248n, // the highest window set, every window below it zero
  (1n << 253n) - 1n, // every window 0xf
  N - 2n,
  N - 1n,
  N,
  N + 1n,
  1n << 255n,
  (1n << 256n) - 1n,
];
const scalars = (): Uint8Array[] => [
  ...EDGES.map(bigintToBytes32BE),
  ...Array.from({ length: 40 }, () => randomBytes(32)),
  ...Array.from({ length: 10 }, () => bigintToBytes32BE(bigintFromBytesBE(randomBytes(8)))),
];

await forEachCore(t, async (t, core) => {
  const { G, H } = core.generators('UMBRA');
  const points = [G, H, core.hashToPoint(randomBytes(16)), core.g1Neg(G)];

  t.test('g1MulSecret equals g1Mul', async (t) => {
    let checked = 0;
    for (const p of points) {
      for (const k of scalars()) {
        t.equal(hex(core.g1MulSecret(p, k)), hex(core.g1Mul(p, k)), `${hex(k)}·P`);
        checked++;
      }
    }
    t.ok(checked > 250);
    t.equal(hex(core.g1MulSecret(G, bigintToBytes32BE(N - 1n))), hex(core.g1Neg(G)), '(n − 1)·G = −G');
    t.equal(hex(core.g1MulSecret(G, bigintToBytes32BE(N))), hex(INFINITY), 'n·G = infinity');
    t.equal(hex(core.g1MulSecret(INFINITY, randomBytes(32))), hex(INFINITY), 'k·infinity = infinity');
  });

  t.test('g1MulSecret rejects what g1Mul rejects', async (t) => {
    const offCurve = G.slice();
    offCurve[63]! ^= 1;
    t.throws(() => core.g1MulSecret(offCurve, bigintToBytes32BE(3n)), 'an off-curve point');
    t.throws(() => core.g1MulSecret(G, new Uint8Array(31)), 'a short scalar');
  });
});

t.test('native and fallback constant-time multiplication agree byte for byte', { skip: nativeMissing() }, async (t) => {
  const { native, fallback } = await bothCores();
  const points = [
    native.generators('UMBRA').G,
    ...Array.from({ length: 5 }, () => native.hashToPoint(randomBytes(12))),
  ];
  const mismatches: string[] = [];
  for (const p of points) {
    for (const k of scalars()) {
      if (hex(native.g1MulSecret(p, k)) !== hex(fallback.g1MulSecret(p, k))) mismatches.push(`${hex(p)} · ${hex(k)}`);
    }
  }
  t.same(mismatches, [], 'every product is the same 64 bytes');
});

t.test(
  "the addon's timing loops (bench crypto, dudect) measure each scalar and bound their input",
  { skip: nativeMissing() },
  async (t) => {
    const load = loadAddon();
    if (!load.ok) return;
    const { native } = await bothCores();
    const G = native.generators('UMBRA').G;
    for (const name of ['g1MulTimings', 'g1MulSecretTimings'] as const) {
      const measure = load.addon[name];
      const out = measure(G, randomBytes(3 * 32));
      t.equal(out.length, 3 * 8, `${name}: one f64 per scalar`);
      const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
      for (let i = 0; i < 3; i++) t.ok(view.getFloat64(i * 8, true) > 0, `${name}: duration ${i} is positive`);
      t.throws(() => measure(G, new Uint8Array(33)), /n·32 bytes/, `${name}: a partial scalar`);
      t.throws(() => measure(G, new Uint8Array(32 * ((1 << 18) + 1))), /n ≤ 262144/, `${name}: too many scalars`);
      t.throws(() => measure(new Uint8Array(63), new Uint8Array(32)), /point/, `${name}: a bad point`);
    }
  },
);
