/**
 * Balance tables in pure TypeScript (@noble/curves), in the same byte format as the native ones (see
 * core-native/src/balance/mod.rs for the layout and the method). Defaults to 2^16 baby steps: building 2^21 here
 * would take minutes, so the fallback uses a smaller table and more giant steps.
 */
import { normalizeZ } from '@noble/curves/abstract/curve.js';
import { bn254 } from '@noble/curves/bn254.js';
import {
  BALANCE_TABLE_VERSION,
  DEFAULT_MAX_BALANCE,
  type BalanceCore,
  type BalanceTable,
  type DecodeOptions,
} from '../balance.js';
import { readUint256BE } from '../bigint-bytes.js';
import { writePoint } from './curve.js';

const Point = bn254.G1.Point;
type G1 = InstanceType<typeof Point>;

const MAGIC = Buffer.from('UMBRABAL');
const MIN_BITS = 8;
const MAX_BITS = 24;
const BUCKETS = 1 << 16;
const HEADER = 8 + 4 + 4 + 64;
const INDEX_BYTES = (BUCKETS + 1) * 4;
const TAG_MASK = (1n << 40n) - 1n;
const BATCH = 256;

const tableSize = (bits: number): number => HEADER + INDEX_BYTES + ((1 << bits) - 1) * 4;

/** The tag's bucket (top 16 bits) and residue (the next 32 − bits) as one (48 − bits)-bit key. */
const keyOf = (tag: bigint, bits: number): bigint => tag >> BigInt(bits - 8);

/** A 64-byte point, strictly checked (all zeros is infinity). */
function pointFrom(bytes: Uint8Array, name: string): G1 {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 64) throw new Error(`${name} must be a 64-byte point`);
  if (bytes.every((b) => b === 0)) return Point.ZERO;
  try {
    const p = Point.fromAffine({ x: readUint256BE(bytes, 0), y: readUint256BE(bytes, 32) });
    p.assertValidity();
    return p;
  } catch {
    throw new Error(`${name}: point is not on the curve or a coordinate is not below p`);
  }
}

function build(base: Uint8Array, bits: number): Uint8Array {
  if (!Number.isInteger(bits) || bits < MIN_BITS || bits > MAX_BITS) {
    throw new Error(`balance table bits must be in [${MIN_BITS}, ${MAX_BITS}], got ${bits}`);
  }
  const g = pointFrom(base, 'base');
  if (g.is0()) throw new Error('balance table base must be a finite point');
  const count = (1 << bits) - 1;
  // (key << bits) | j while sorting; the table keeps the low 32 bits (residue and j).
  const entries = new BigUint64Array(count);
  let current = g;
  for (let start = 0; start < count; start += 4096) {
    const batch: G1[] = [];
    for (let j = start; j < Math.min(count, start + 4096); j++) {
      batch.push(current);
      current = current.add(g);
    }
    normalizeZ(Point, batch).forEach((p, k) => {
      entries[start + k] = (keyOf(p.toAffine().x & TAG_MASK, bits) << BigInt(bits)) | BigInt(start + k + 1);
    });
  }
  entries.sort();
  const out = Buffer.alloc(tableSize(bits));
  MAGIC.copy(out, 0);
  out.writeUInt32LE(BALANCE_TABLE_VERSION, 8);
  out.writeUInt32LE(bits, 12);
  out.set(writePoint(g), 16);
  let position = 0;
  for (let bucket = 0; bucket <= BUCKETS; bucket++) {
    while (position < count && Number(entries[position]! >> 32n) < bucket) position++;
    out.writeUInt32LE(position, HEADER + bucket * 4);
  }
  entries.forEach((e, i) => out.writeUInt32LE(Number(e & 0xffffffffn), HEADER + INDEX_BYTES + i * 4));
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

function load(bytes: Uint8Array): BalanceTable {
  if (!(bytes instanceof Uint8Array)) throw new Error('a balance table must be a Uint8Array');
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (view.length < HEADER || !view.subarray(0, 8).equals(MAGIC)) throw new Error('not a balance table (bad magic)');
  const version = view.readUInt32LE(8);
  if (version !== BALANCE_TABLE_VERSION) throw new Error(`unsupported balance table version ${version}`);
  const bits = view.readUInt32LE(12);
  if (bits < MIN_BITS || bits > MAX_BITS || view.length !== tableSize(bits)) {
    throw new Error(`balance table is truncated or has a bad size (${view.length} bytes for ${bits} bits)`);
  }
  const base = bytes.slice(16, 80);
  const g = pointFrom(base, 'balance table base');
  const count = (1 << bits) - 1;
  const bucketStart = (bucket: number): number => view.readUInt32LE(HEADER + bucket * 4);
  if (bucketStart(BUCKETS) !== count) throw new Error('balance table index is corrupt');
  const entry = (i: number): number => view.readUInt32LE(HEADER + INDEX_BYTES + i * 4);
  const jMask = 2 ** bits - 1;

  /** center ± j when q = ±j·G for a baby step j (a tag match is confirmed exactly). */
  function matchStep(q: G1, center: bigint): bigint | null {
    if (q.is0()) return center;
    const key = keyOf(q.toAffine().x & TAG_MASK, bits);
    const bucket = Number(key >> BigInt(32 - bits));
    const residue = Number(key & ((1n << BigInt(32 - bits)) - 1n));
    for (let i = bucketStart(bucket); i < Math.min(bucketStart(bucket + 1), count); i++) {
      const e = entry(i);
      if (Math.floor(e / 2 ** bits) !== residue) continue;
      const j = BigInt(e & jMask);
      const r = g.multiplyUnsafe(j);
      if (r.equals(q)) return center + j;
      if (r.equals(q.negate()) && center >= j) return center - j;
    }
    return null;
  }

  function decode(pointBytesIn: Uint8Array, options: DecodeOptions = {}): bigint | null {
    const maxValue = options.maxValue ?? DEFAULT_MAX_BALANCE;
    const p = pointFrom(pointBytesIn, 'point');
    if (maxValue < 0n) return null;
    if (p.is0()) return 0n;
    for (const hint of options.hints ?? []) {
      if (
        typeof hint === 'bigint' &&
        hint > 0n &&
        hint <= maxValue &&
        hint < 1n << 64n &&
        g.multiplyUnsafe(hint).equals(p)
      )
        return hint;
    }
    const half = (1n << BigInt(bits)) - 1n;
    const stride = 2n * half + 1n;
    const limit = maxValue + half;
    // Giant step 0 is the point itself; later batches grow from 4 to 256 steps (one normalisation each).
    const first = matchStep(p, 0n);
    if (first !== null && first <= maxValue) return first;
    const minusStride = g.multiplyUnsafe(stride).negate();
    let q = p.add(minusStride);
    let batchSize = 4;
    for (let i = 1n; i * stride <= limit; i += BigInt(batchSize), batchSize = Math.min(batchSize * 2, BATCH)) {
      const batch: G1[] = [];
      for (let k = 0; k < batchSize; k++) {
        batch.push(q);
        q = q.add(minusStride);
      }
      const normalized = normalizeZ(Point, batch);
      for (let k = 0; k < batchSize; k++) {
        const center = (i + BigInt(k)) * stride;
        if (center > limit) return null;
        const v = matchStep(normalized[k]!, center);
        if (v !== null && v <= maxValue) return v;
      }
    }
    return null;
  }

  return { bits, base, serialize: () => bytes, decode };
}

export const fallbackBalance: BalanceCore = {
  defaultBalanceTableBits: 16,
  buildBalanceTable: (base, bits = 16) => load(build(base, bits)),
  loadBalanceTable: load,
};
