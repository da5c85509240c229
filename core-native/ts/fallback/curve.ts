/**
 * BN254 G1 in pure TypeScript (@noble/curves), with the protocol's own encodings (docs/cryptography.md § Curve and points):
 * 64-byte affine points, the 33-byte x ‖ flag compression (not SEC1), try-and-increment HashToPoint.
 */
import { pippenger } from '@noble/curves/abstract/curve.js';
import { bn254 } from '@noble/curves/bn254.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { readUint256BE, writeUint256BE } from '../bigint-bytes.js';
import {
  FIELD_PRIME as P,
  G1_PROGRESSION_MAX,
  type CurveCore,
  type FixedBase,
  type Generators,
  type MsmTable,
} from '../curve.js';
import { GROUP_ORDER as N } from '../scalar.js';

const Point = bn254.G1.Point;
type G1 = InstanceType<typeof Point>;

const SQRT_EXP = (P + 1n) / 4n;
const POINT = 64;
const SCALAR = 32;
const COMPRESSED = 33;
const COUNT = 128;

const mod = (a: bigint, m: bigint): bigint => ((a % m) + m) % m;

function powP(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = mod(base, P);
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}

function checkBytes(name: string, value: Uint8Array, length: number): void {
  if (!(value instanceof Uint8Array)) throw new Error(`${name} must be a Uint8Array`);
  if (value.length !== length) throw new Error(`${name} must be ${length} bytes, got ${value.length}`);
}

/** 64 bytes → a validated point (64 zero bytes = infinity). */
function readPoint(bytes: Uint8Array, name = 'point'): G1 {
  checkBytes(name, bytes, POINT);
  const x = readUint256BE(bytes, 0);
  const y = readUint256BE(bytes, 32);
  if (x === 0n && y === 0n) return Point.ZERO;
  if (x >= P || y >= P) throw new Error(`${name} has a coordinate ≥ p`);
  if (mod(y * y - (x * x * x + 3n), P) !== 0n) throw new Error(`${name} is not on the curve`);
  return Point.fromAffine({ x, y });
}

/** A point → 64 bytes (infinity → 64 zero bytes); the fallback balance table writes its base with it too. */
export function writePoint(point: G1): Uint8Array {
  const out = new Uint8Array(POINT);
  if (point.is0()) return out;
  const { x, y } = point.toAffine();
  writeUint256BE(out, 0, x);
  writeUint256BE(out, 32, y);
  return out;
}

function readScalar(bytes: Uint8Array, name = 'scalar'): bigint {
  checkBytes(name, bytes, SCALAR);
  return readUint256BE(bytes) % N;
}

/** The point (x, y) if x³ + 3 has the square root y = β^((p+1)/4), else undefined. */
function liftX(x: bigint): bigint | undefined {
  const beta = (((x * x) % P) * x + 3n) % P;
  const y = powP(beta, SQRT_EXP);
  return (y * y) % P === beta ? y : undefined;
}

function decompress(compressed: Uint8Array): Uint8Array {
  checkBytes('compressed point', compressed, COMPRESSED);
  const x = readUint256BE(compressed, 0);
  const flag = compressed[32]!;
  if (x >= P) throw new Error('compressed point has x ≥ p');
  if (flag > 1) throw new Error(`compressed point has flag byte ${flag} (expected 0 or 1)`);
  const root = liftX(x);
  if (root === undefined) throw new Error('compressed point is not on the curve (x³ + 3 has no square root)');
  const small = root < P - root ? root : P - root;
  const y = flag === 0 ? small : P - small;
  const out = new Uint8Array(POINT);
  writeUint256BE(out, 0, x);
  writeUint256BE(out, 32, y);
  return out;
}

function compress(point: Uint8Array): Uint8Array {
  const p = readPoint(point);
  if (p.is0()) throw new Error('the point at infinity cannot be compressed');
  const out = new Uint8Array(COMPRESSED);
  out.set(point.subarray(0, 32), 0);
  const y = readUint256BE(point, 32);
  out[32] = y < P - y ? 0 : 1;
  return out;
}

function hashToPoint(data: Uint8Array): Uint8Array {
  if (!(data instanceof Uint8Array)) throw new Error('data must be a Uint8Array');
  let x = readUint256BE(keccak_256(data)) % N; // mod n, not p: the reference's quirk (§1.3)
  for (;;) {
    const y = liftX(x);
    if (y !== undefined) {
      const out = new Uint8Array(POINT);
      writeUint256BE(out, 0, x);
      writeUint256BE(out, 32, y);
      return out;
    }
    x = (x + 1n) % P;
  }
}

function mulVar(point: G1, k: bigint): G1 {
  return k === 0n || point.is0() ? Point.ZERO : point.multiplyUnsafe(k);
}

function readMany(bytes: Uint8Array, size: number, name: string): Uint8Array[] {
  if (!(bytes instanceof Uint8Array)) throw new Error(`${name} must be a Uint8Array`);
  if (bytes.length % size !== 0) throw new Error(`${name} must be a multiple of ${size} bytes, got ${bytes.length}`);
  return Array.from({ length: bytes.length / size }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
}

const readPoints = (points: Uint8Array): G1[] =>
  readMany(points, POINT, 'points').map((p, i) => readPoint(p, `points[${i}]`));

function msmOf(points: G1[], scalars: Uint8Array): Uint8Array {
  const ks = readMany(scalars, SCALAR, 'scalars').map((k) => readUint256BE(k) % N);
  if (points.length !== ks.length)
    throw new Error(`msm needs as many scalars as points (${points.length} points, ${ks.length} scalars)`);
  return writePoint(pippenger(Point, points, ks));
}

const encoder = new TextEncoder();

function domainPoint(domain: Uint8Array, letter: string, index?: number): Uint8Array {
  const tag = encoder.encode(letter);
  const data = new Uint8Array(domain.length + 1 + (index === undefined ? 0 : 32));
  data.set(domain, 0);
  data.set(tag, domain.length);
  if (index !== undefined) writeUint256BE(data, domain.length + 1, BigInt(index));
  return hashToPoint(data);
}

function buildGenerators(domain: string): Generators {
  const prefix = encoder.encode(domain);
  const Gs = new Uint8Array(COUNT * POINT);
  const Hs = new Uint8Array(COUNT * POINT);
  let sum = Point.ZERO;
  for (let i = 0; i < COUNT; i++) {
    const g = domainPoint(prefix, 'G', i);
    Gs.set(g, i * POINT);
    Hs.set(domainPoint(prefix, 'H', i), i * POINT);
    sum = sum.add(readPoint(g));
  }
  return Object.freeze({
    domain,
    G: domainPoint(prefix, 'G'),
    H: domainPoint(prefix, 'H'),
    Gs,
    Hs,
    GSUM: writePoint(sum),
  });
}

/** The pure-TypeScript CurveCore; generator sets are cached per domain. */
export function fallbackCurve(): CurveCore {
  const generatorCache = new Map<string, Generators>();
  return {
    g1Decompress: decompress,
    g1Compress: compress,
    g1IsValid(point) {
      try {
        readPoint(point);
        return true;
      } catch {
        return false;
      }
    },
    g1Add: (a, b) => writePoint(readPoint(a, 'a').add(readPoint(b, 'b'))),
    g1Sub: (a, b) => writePoint(readPoint(a, 'a').subtract(readPoint(b, 'b'))),
    g1Neg: (a) => writePoint(readPoint(a).negate()),
    g1Mul: (point, scalar) => writePoint(mulVar(readPoint(point), readScalar(scalar))),
    g1MulSecret(point, scalar) {
      const p = readPoint(point);
      const k = readScalar(scalar);
      return writePoint(k === 0n || p.is0() ? Point.ZERO : p.multiply(k));
    },
    g1FixedBase(point): FixedBase {
      const base = readPoint(point);
      if (!base.is0()) base.precompute(8, false);
      return { mul: (scalar) => writePoint(mulVar(base, readScalar(scalar))) };
    },
    g1Msm: (points, scalars) => msmOf(readPoints(points), scalars),
    g1MsmTable(points): MsmTable {
      const bases = readPoints(points);
      return { run: (scalars) => msmOf(bases, scalars) };
    },
    g1Progression(start, step, count) {
      if (!Number.isSafeInteger(count) || count < 0 || count > G1_PROGRESSION_MAX)
        throw new Error(`count must be an integer from 0 to ${G1_PROGRESSION_MAX}, got ${count}`);
      const delta = readPoint(step, 'step');
      const out = new Uint8Array(count * POINT);
      let current = readPoint(start, 'start');
      for (let i = 0; i < count; i++, current = current.add(delta)) out.set(writePoint(current), i * POINT);
      return out;
    },
    g1AddToCompressed(compressed, points) {
      const n = compressed.length / COMPRESSED;
      if (!Number.isInteger(n) || points.length !== n * POINT)
        throw new Error(
          `expected n·33 bytes of compressed points and n·64 bytes of points, got ${compressed.length} and ${points.length}`,
        );
      const out = new Uint8Array(compressed.length);
      for (let i = 0; i < n; i++) {
        const sum = decompress(compressed.subarray(i * COMPRESSED, (i + 1) * COMPRESSED));
        const point = points.subarray(i * POINT, (i + 1) * POINT);
        out.set(
          compress(writePoint(readPoint(sum, `compressed point ${i}`).add(readPoint(point, `point ${i}`)))),
          i * COMPRESSED,
        );
      }
      return out;
    },
    hashToPoint,
    generators(domain) {
      if (typeof domain !== 'string') throw new Error('generator domain must be a string');
      let set = generatorCache.get(domain);
      if (!set) {
        set = buildGenerators(domain);
        generatorCache.set(domain, set);
      }
      return set;
    },
  };
}
