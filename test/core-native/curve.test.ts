/** BN254 G1 on every implementation (one body): generator vectors, encodings, strict rejection, arithmetic. */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { bigintFromBytesBE, bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { forEachCore } from '../helpers/core-impls.js';

const vectors = JSON.parse(readFileSync(new URL('../../../test/vectors/curve-keys.json', import.meta.url), 'utf8'));
const V = vectors.curve;
const P = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n;
const N = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unhex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
const INFINITY = new Uint8Array(64);

await forEachCore(t, async (t, core) => {
  const gens = core.generators('DERO');
  const compressed = (p: Uint8Array): string => hex(core.g1Compress(p));
  const G = gens.G;

  t.test('generator vectors (domain DERO)', async (t) => {
    t.equal(compressed(G), V.G);
    t.equal(hex(G), V.G_x + V.G_y, 'uncompressed G');
    t.equal(compressed(gens.H), V.H);
    for (const i of Object.keys(V.Gs)) {
      const at = Number(i) * 64;
      t.equal(compressed(gens.Gs.subarray(at, at + 64)), V.Gs[i], `Gs[${i}]`);
      t.equal(compressed(gens.Hs.subarray(at, at + 64)), V.Hs[i], `Hs[${i}]`);
    }
    t.equal(gens.Gs.length, 128 * 64);
    t.equal(compressed(gens.GSUM), V.GSUM);
    for (const [data, expected] of Object.entries(V.hashToPoint)) {
      t.equal(
        compressed(core.hashToPoint(new TextEncoder().encode(data))),
        expected,
        `HashToPoint(${JSON.stringify(data)})`,
      );
    }
    t.equal(core.generators('DERO'), gens, 'generator sets are cached per domain');
    t.not(hex(core.generators('UMBRA').G), hex(G), 'UMBRA generators differ from DERO');
  });

  t.test('compression round trips and the vector multiples', async (t) => {
    t.equal(compressed(core.g1Neg(G)), V.negG);
    t.equal(compressed(core.g1Add(G, G)), V.twoG);
    t.equal(compressed(core.g1Mul(G, bigintToBytes32BE(2n))), V.twoG);
    t.equal(
      hex(core.g1Decompress(unhex(V.standardGenerator))),
      hex(bigintToBytes32BE(1n)) + hex(bigintToBytes32BE(2n)),
      '(1, 2)',
    );
    for (let i = 0; i < 20; i++) {
      const p = core.hashToPoint(randomBytes(16));
      const c = core.g1Compress(p);
      t.equal(hex(core.g1Decompress(c)), hex(p));
      t.equal(hex(core.g1Decompress(core.g1Compress(core.g1Neg(p)))), hex(core.g1Neg(p)));
    }
    t.throws(() => core.g1Compress(INFINITY), /infinity/);
    t.ok(core.g1IsValid(INFINITY), 'infinity is a valid 64-byte point');
  });

  t.test('malformed points are rejected', async (t) => {
    const g = unhex(V.G);
    const xPlusP = g.slice();
    xPlusP.set(bigintToBytes32BE(BigInt('0x' + V.G_x) + P), 0);
    t.throws(() => core.g1Decompress(xPlusP), 'x ≥ p');
    for (const flag of [2, 7, 0xff]) {
      const bad = g.slice();
      bad[32] = flag;
      t.throws(() => core.g1Decompress(bad), `flag ${flag}`);
    }
    t.throws(() => core.g1Decompress(new Uint8Array(33)), 'x = 0 (3 is a non-residue): infinity cannot be decoded');
    t.throws(() => core.g1Decompress(g.subarray(0, 32)), '32 bytes');
    t.throws(() => core.g1Decompress(new Uint8Array(34)), '34 bytes');
    const offCurve = G.slice();
    offCurve[63]! ^= 1;
    t.notOk(core.g1IsValid(offCurve), 'off-curve point is invalid');
    t.notOk(core.g1IsValid(G.subarray(0, 63)), 'short point is invalid');
    t.throws(() => core.g1Add(offCurve, G), 'add rejects an off-curve point');
    t.throws(() => core.g1Mul(offCurve, bigintToBytes32BE(3n)), 'mul rejects an off-curve point');
    t.throws(() => core.g1Mul(G, new Uint8Array(31)), 'mul rejects a short scalar');
    t.throws(() => core.g1Msm(gens.Gs.subarray(0, 128), new Uint8Array(32)), 'msm rejects mismatched counts');
  });

  t.test('arithmetic is consistent', async (t) => {
    const a = bigintFromBytesBE(randomBytes(32)) % N;
    const b = bigintFromBytesBE(randomBytes(32)) % N;
    const aG = core.g1Mul(G, bigintToBytes32BE(a));
    const bG = core.g1Mul(G, bigintToBytes32BE(b));
    t.equal(hex(core.g1Add(aG, bG)), hex(core.g1Mul(G, bigintToBytes32BE((a + b) % N))), 'aG + bG = (a+b)G');
    t.equal(hex(core.g1Sub(aG, bG)), hex(core.g1Mul(G, bigintToBytes32BE((a - b + N) % N))), 'aG − bG = (a−b)G');
    t.equal(hex(core.g1Add(aG, core.g1Neg(aG))), hex(INFINITY), 'P + (−P) = infinity');
    t.equal(hex(core.g1MulSecret(G, bigintToBytes32BE(a))), hex(aG), 'constant-time mul agrees');
    t.equal(hex(core.g1Mul(G, bigintToBytes32BE(a + N))), hex(aG), 'scalars are used mod n');
    t.equal(hex(core.g1Mul(G, bigintToBytes32BE(0n))), hex(INFINITY), '0·G = infinity');
    t.equal(hex(core.g1MulSecret(G, bigintToBytes32BE(N))), hex(INFINITY), 'n·G = infinity');
    const fixed = core.g1FixedBase(gens.H);
    t.equal(hex(fixed.mul(bigintToBytes32BE(a))), hex(core.g1Mul(gens.H, bigintToBytes32BE(a))), 'fixed base agrees');
    const count = 9;
    const scalars = Array.from({ length: count }, () => randomBytes(32));
    let sum: Uint8Array = INFINITY;
    for (let i = 0; i < count; i++)
      sum = core.g1Add(sum, core.g1Mul(gens.Gs.subarray(i * 64, i * 64 + 64), scalars[i]!));
    t.equal(hex(core.g1Msm(gens.Gs.subarray(0, count * 64), Buffer.concat(scalars))), hex(sum), 'msm = Σ kᵢ·Pᵢ');
    t.equal(hex(core.g1Msm(new Uint8Array(0), new Uint8Array(0))), hex(INFINITY), 'empty msm = infinity');
  });

  t.test('g1MsmTable runs the msm of its points', async (t) => {
    // Infinity, a repeated point, a zero scalar and n − 1 among the terms.
    const points = Buffer.concat([
      gens.Gs.subarray(0, 5 * 64),
      INFINITY,
      gens.Gs.subarray(0, 64),
      gens.Hs.subarray(0, 64),
    ]);
    const table = core.g1MsmTable(points);
    for (const scalars of [
      Buffer.concat([...Array.from({ length: 7 }, () => randomBytes(32)), bigintToBytes32BE(N - 1n)]),
      Buffer.concat([new Uint8Array(32), ...Array.from({ length: 7 }, () => randomBytes(32))]),
      new Uint8Array(8 * 32),
    ]) {
      t.equal(hex(table.run(scalars)), hex(core.g1Msm(points, scalars)), 'table msm = msm');
    }
    t.throws(() => table.run(new Uint8Array(32)), 'rejects a scalar count other than the point count');
    t.throws(() => core.g1MsmTable(gens.Gs.subarray(0, 100)), 'rejects a partial point');
  });

  t.test('g1Progression walks start + i·step', async (t) => {
    const start = core.g1Mul(G, bigintToBytes32BE(7n));
    const walked = core.g1Progression(start, gens.H, 5);
    t.equal(walked.length, 5 * 64);
    for (let i = 0; i < 5; i++) {
      const expected = core.g1Add(start, core.g1Mul(gens.H, bigintToBytes32BE(BigInt(i))));
      t.equal(hex(walked.subarray(i * 64, (i + 1) * 64)), hex(expected), `point ${i}`);
    }
    const n = core.g1Progression(core.g1Neg(G), G, 3);
    t.equal(hex(n.subarray(64, 128)), hex(INFINITY), 'passes through infinity');
    t.equal(hex(n.subarray(128)), hex(G), 'and out of it');
    t.equal(core.g1Progression(G, G, 0).length, 0, 'an empty walk');
    t.throws(() => core.g1Progression(G, G, (1 << 16) + 1), /count must be an integer from 0 to 65536/);
    const offCurve = G.slice();
    offCurve[63]! ^= 1;
    t.throws(() => core.g1Progression(offCurve, G, 1), 'rejects an off-curve start');
  });

  t.test('g1AddToCompressed adds points onto compressed ones, as one by one', async (t) => {
    const stored = Array.from({ length: 6 }, () => core.g1Mul(G, randomBytes(32)));
    const added = Array.from({ length: 6 }, () => core.g1Mul(gens.H, randomBytes(32)));
    const compressed = Buffer.concat(stored.map((point) => core.g1Compress(point)));
    const sums = core.g1AddToCompressed(compressed, Buffer.concat(added));
    t.equal(sums.length, 6 * 33);
    stored.forEach((point, i) =>
      t.equal(hex(sums.subarray(i * 33, (i + 1) * 33)), hex(core.g1Compress(core.g1Add(point, added[i]!))), `sum ${i}`),
    );
    t.equal(core.g1AddToCompressed(new Uint8Array(0), new Uint8Array(0)).length, 0, 'none');
    t.throws(() => core.g1AddToCompressed(compressed, Buffer.concat(added.slice(1))), 'counts that do not pair up');
    const bad = Uint8Array.from(compressed);
    bad[32] = 7;
    t.throws(() => core.g1AddToCompressed(bad, Buffer.concat(added)), 'an invalid compressed point');
    t.throws(
      () => core.g1AddToCompressed(compressed.subarray(0, 33), core.g1Neg(stored[0]!)),
      'a sum at infinity, which has no compressed form',
    );
  });
});
