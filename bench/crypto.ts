/**
 * Native vs fallback crypto core, side by side (issue 6 targets: native variable-base multiplication ≤ 75 µs,
 * a 2^21 balance table in < 1.5 s, PoW ≤ 2.8 ms per hash). The fallback builds a 2^16 balance table (its default;
 * 2^21 would take minutes) and its row says so; both decode 1 230 000 with their own table. msm-1024 uses two
 * threads natively. g1-mul-secret is the constant-time multiplication used for secret scalars; ct-g1-mul-secret and
 * ct-g1-mul-var are dudect's |t| for it and, for contrast, for the variable-time one (issue 21: target < 4.5).
 */
import { randomFillSync } from 'node:crypto';
import { bn254 } from '@noble/curves/bn254.js';
import { bigintToBytes32BE } from '../core-native/ts/bigint-bytes.js';
import type { Core } from '../core-native/ts/core.js';
import type { CurveCore } from '../core-native/ts/curve.js';
import type { PowCore } from '../core-native/ts/pow.js';
import { loadCore } from '../core-native/ts/index.js';
import { loadAddon } from '../core-native/ts/native.js';
import { runBench, timeIt, type BenchRow } from './harness.js';
import { maxAbsT } from './lib/dudect.js';

/** G = HashToPoint("DEROG") (docs/cryptography.md § Generators) as x ‖ y, and 1 230 000·G. */
const G_X = 0x02eacfbf92b94015c9b0b3d901dae37ec68f74dea7e4484c76d505aade4ad7c0n;
const G_Y = 0x1bb19d0d6bfcd78fc21da8d68dff1e8441cfa73d66cab25bb0315cf6d6433b5dn;
const affineBytes = (x: bigint, y: bigint): Uint8Array =>
  Uint8Array.from([...bigintToBytes32BE(x), ...bigintToBytes32BE(y)]);
const BALANCE_BASE = affineBytes(G_X, G_Y);
const balancePoint = bn254.G1.Point.fromAffine({ x: G_X, y: G_Y }).multiply(1_230_000n).toAffine();
const BALANCE_1230000 = affineBytes(balancePoint.x, balancePoint.y);

const scalar = (i: number): Uint8Array => {
  const k = new Uint8Array(32);
  for (let j = 0; j < 32; j++) k[j] = (i * 131 + j * 29 + ((i * j) >> 3)) & 0xff;
  return k;
};
const be32 = (i: number): Uint8Array => {
  const out = new Uint8Array(32);
  new DataView(out.buffer).setUint32(28, i);
  return out;
};

function benchCore(core: Core & Partial<CurveCore> & Partial<PowCore>, rows: BenchRow[]): void {
  const impl = core.impl;
  const add = (name: string, value: number, unit = 'us'): void => {
    rows.push({ case: name, impl, unit, value });
  };
  const curve = core as Core & CurveCore;
  if (typeof core.g1Mul === 'function') {
    const { G, H } = curve.generators('UMBRA');
    let i = 0;
    add(
      'g1-add',
      timeIt(() => curve.g1Add(G, H)),
    );
    add(
      'g1-mul-var',
      timeIt(() => curve.g1Mul(H, scalar(i++))),
    );
    add(
      'g1-mul-secret',
      timeIt(() => curve.g1MulSecret(H, scalar(i++))),
    );
    const fixed = curve.g1FixedBase(G);
    add(
      'g1-mul-fixed',
      timeIt(() => fixed.mul(scalar(i++))),
    );
    const points = new Uint8Array(1024 * 64);
    for (let j = 0; j < 1024; j++) points.set(curve.hashToPoint(be32(j)), j * 64);
    const scalars = new Uint8Array(1024 * 32);
    for (let j = 0; j < 1024; j++) scalars.set(scalar(j + 7), j * 32);
    add(
      'msm-64',
      timeIt(() => curve.g1Msm(points.subarray(0, 64 * 64), scalars.subarray(0, 64 * 32))),
    );
    add(
      'msm-1024',
      timeIt(() => curve.g1Msm(points, scalars), { minMs: 2000, minIterations: 2 }),
    );
    const compressed = curve.g1Compress(H);
    add(
      'decompress',
      timeIt(() => curve.g1Decompress(compressed)),
    );
  } else {
    console.log(`${impl}: no curve implementation yet, curve cases skipped`);
  }
  // Balance decoding needs no curve functions from the core: G and 1 230 000·G come from the vectors and noble.
  const bits = core.defaultBalanceTableBits;
  const started = process.hrtime.bigint();
  const table = core.buildBalanceTable(BALANCE_BASE, bits);
  add(`table-build-2^${bits}`, Number(process.hrtime.bigint() - started) / 1e6, 'ms');
  if (table.decode(BALANCE_1230000) !== 1_230_000n) throw new Error(`${impl}: balance decoding returned a wrong value`);
  add(
    'decode-1230000',
    timeIt(() => table.decode(BALANCE_1230000)),
  );

  if (typeof core.powHash === 'function') {
    const powHash = core.powHash.bind(core);
    const blob = new Uint8Array(48);
    let nonce = 0;
    add(
      'pow-hash',
      timeIt(() => {
        new DataView(blob.buffer).setUint32(44, nonce++);
        powHash(blob);
      }),
    );
  } else {
    console.log(`${impl}: no powHash yet, pow-hash skipped`);
  }
}

/** The addon's measuring loops: n durations (ns) of P·scalars[i], timed one by one inside Rust. */
type TimingFn = (point: Uint8Array, scalars: Uint8Array) => Uint8Array;

/**
 * dudect on one multiplication: class 0 is the fixed scalar 1 (63 of 64 windows zero, a very short wNAF), class 1 a
 * fresh random 256-bit value each time; the classes are interleaved in random order, in batches, until `samples`
 * or `budgetMs` is reached. Returns max |t| over the percentile crops.
 */
function timingLeak(measure: TimingFn, point: Uint8Array, samples: number, budgetMs: number): number {
  const BATCH = 5000;
  const times: number[] = [];
  const classes: number[] = [];
  const started = Date.now();
  measure(point, new Uint8Array(32 * 1000)); // warm-up, not counted
  while (times.length < samples && Date.now() - started < budgetMs) {
    const scalars = randomFillSync(new Uint8Array(BATCH * 32));
    const batchClasses = randomFillSync(new Uint8Array(BATCH)).map((b) => b & 1);
    for (let j = 0; j < BATCH; j++) {
      if (batchClasses[j] === 0) scalars.fill(0, j * 32, j * 32 + 31).fill(1, j * 32 + 31, j * 32 + 32);
    }
    const out = measure(point, scalars);
    const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    for (let j = 0; j < BATCH; j++) times.push(view.getFloat64(j * 8, true));
    classes.push(...batchClasses);
  }
  console.log(`  dudect: ${times.length} samples in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return maxAbsT(Float64Array.from(times), Uint8Array.from(classes));
}

const rows: BenchRow[] = [];
const addon = loadAddon();
if (addon.ok) {
  const native = await loadCore({ impl: 'native' });
  benchCore(native, rows);
  const { H } = (native as Core & CurveCore).generators('UMBRA');
  const leak = (name: string, measure: TimingFn, samples: number, budgetMs: number): void => {
    rows.push({ case: name, impl: 'native', unit: '|t|', value: timingLeak(measure, H, samples, budgetMs) });
  };
  leak('ct-g1-mul-secret', addon.addon.g1MulSecretTimings, 200_000, 40_000);
  leak('ct-g1-mul-var', addon.addon.g1MulTimings, 20_000, 8_000);
} else console.log(`native skipped: ${addon.reason}`);
benchCore(await loadCore({ impl: 'fallback' }), rows);
runBench('crypto', rows);
