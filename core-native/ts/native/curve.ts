/** BN254 G1 from the addon (core-native/src/bn254/): thin wrappers plus the per-domain generator cache. */
import type { CurveCore, FixedBase, Generators, MsmTable } from '../curve.js';

export interface CurveAddon {
  g1Decompress(compressed: Uint8Array): Uint8Array;
  g1Compress(point: Uint8Array): Uint8Array;
  g1IsValid(point: Uint8Array): boolean;
  g1Add(a: Uint8Array, b: Uint8Array): Uint8Array;
  g1Sub(a: Uint8Array, b: Uint8Array): Uint8Array;
  g1Neg(a: Uint8Array): Uint8Array;
  g1Mul(point: Uint8Array, scalar: Uint8Array): Uint8Array;
  g1MulSecret(point: Uint8Array, scalar: Uint8Array): Uint8Array;
  /** The precomputed multiples of a finite base, as an opaque buffer. */
  g1FixedBaseTable(point: Uint8Array): Uint8Array;
  g1FixedBaseMul(table: Uint8Array, scalar: Uint8Array): Uint8Array;
  g1Msm(points: Uint8Array, scalars: Uint8Array): Uint8Array;
  /** The multiples 2^(8j)·P of every point, as an opaque buffer. */
  g1MsmTable(points: Uint8Array): Uint8Array;
  g1MsmTableRun(table: Uint8Array, scalars: Uint8Array): Uint8Array;
  g1Progression(start: Uint8Array, step: Uint8Array, count: number): Uint8Array;
  g1AddToCompressed(compressed: Uint8Array, points: Uint8Array): Uint8Array;
  hashToPoint(data: Uint8Array): Uint8Array;
  /** G, H, Gs[0..128], Hs[0..128], GSUM, concatenated (259·64 bytes). */
  g1Generators(domain: string): Uint8Array;
}

const POINT = 64;
const COUNT = 128;

export function nativeCurve(addon: CurveAddon): CurveCore {
  const generatorCache = new Map<string, Generators>();

  function fixedBase(point: Uint8Array): FixedBase {
    if (point.length === POINT && point.every((b) => b === 0)) {
      return { mul: (scalar) => addon.g1Mul(point, scalar) }; // multiples of infinity: no table to build
    }
    const table = addon.g1FixedBaseTable(point);
    return { mul: (scalar) => addon.g1FixedBaseMul(table, scalar) };
  }

  function msmTable(points: Uint8Array): MsmTable {
    const table = addon.g1MsmTable(points);
    return { run: (scalars) => addon.g1MsmTableRun(table, scalars) };
  }

  function generators(domain: string): Generators {
    if (typeof domain !== 'string') throw new Error('generator domain must be a string');
    let set = generatorCache.get(domain);
    if (!set) {
      const all = addon.g1Generators(domain);
      const at = (i: number): Uint8Array => all.slice(i * POINT, (i + 1) * POINT);
      set = Object.freeze({
        domain,
        G: at(0),
        H: at(1),
        Gs: all.slice(2 * POINT, (2 + COUNT) * POINT),
        Hs: all.slice((2 + COUNT) * POINT, (2 + 2 * COUNT) * POINT),
        GSUM: at(2 + 2 * COUNT),
      });
      generatorCache.set(domain, set);
    }
    return set;
  }

  return {
    g1Decompress: addon.g1Decompress,
    g1Compress: addon.g1Compress,
    g1IsValid: addon.g1IsValid,
    g1Add: addon.g1Add,
    g1Sub: addon.g1Sub,
    g1Neg: addon.g1Neg,
    g1Mul: addon.g1Mul,
    g1MulSecret: addon.g1MulSecret,
    g1FixedBase: fixedBase,
    g1Msm: addon.g1Msm,
    g1MsmTable: msmTable,
    g1Progression: addon.g1Progression,
    g1AddToCompressed: addon.g1AddToCompressed,
    hashToPoint: addon.hashToPoint,
    generators,
  };
}
