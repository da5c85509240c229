/**
 * BN254 G1 arithmetic (docs/cryptography.md: curve, HashToPoint, generators).
 *
 * Representations crossing this interface:
 * - a point is 64 bytes, affine x ‖ y, each 32 bytes big-endian; the point at infinity is 64 zero bytes
 *   (this is also the "uncompressed" form hashed into transcripts);
 * - a compressed point is 33 bytes: x big-endian, then a flag byte 0x00 if y < p − y, else 0x01;
 * - a scalar is 32 bytes big-endian; any 256-bit value is accepted and used mod n (the group order);
 * - many points or scalars are passed concatenated in one buffer (n·64 or n·32 bytes).
 * Functions that can fail on bad input throw an `Error` whose message names the problem.
 */
/** The base field prime p: point coordinates are integers mod p. */
export const FIELD_PRIME = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n;

export interface FixedBase {
  /** k·P for the precomputed base P (variable time: public data only). */
  mul(scalar: Uint8Array): Uint8Array;
}

export interface MsmTable {
  /** Σ scalars[i]·points[i] over the table's n points (variable time: public data only); `scalars` is n·32 bytes. */
  run(scalars: Uint8Array): Uint8Array;
}

export interface Generators {
  readonly domain: string;
  /** HashToPoint(domain ‖ "G"): the value base and key base. */
  readonly G: Uint8Array;
  /** HashToPoint(domain ‖ "H"): the blinding base. */
  readonly H: Uint8Array;
  /** Gs[i] = HashToPoint(domain ‖ "G" ‖ uint256_be(i)), i < 128, concatenated (128·64 bytes). */
  readonly Gs: Uint8Array;
  /** Hs[i] = HashToPoint(domain ‖ "H" ‖ uint256_be(i)), i < 128, concatenated. */
  readonly Hs: Uint8Array;
  /** Σ Gs[i]. */
  readonly GSUM: Uint8Array;
}

/** The most points one g1Progression call returns (the addon has the same limit). */
export const G1_PROGRESSION_MAX = 1 << 16;

export interface CurveCore {
  /** Strict decompression: rejects x ≥ p, a flag other than 0/1, and x with no point on the curve. */
  g1Decompress(compressed: Uint8Array): Uint8Array;
  /** Compression of a finite point (infinity cannot be compressed: throws). */
  g1Compress(point: Uint8Array): Uint8Array;
  /** Whether 64 bytes are a valid affine point on the curve (or infinity). */
  g1IsValid(point: Uint8Array): boolean;
  g1Add(a: Uint8Array, b: Uint8Array): Uint8Array;
  g1Sub(a: Uint8Array, b: Uint8Array): Uint8Array;
  g1Neg(a: Uint8Array): Uint8Array;
  /** Variable-time k·P for public data. */
  g1Mul(point: Uint8Array, scalar: Uint8Array): Uint8Array;
  /** Constant-time k·P for secret scalars. */
  g1MulSecret(point: Uint8Array, scalar: Uint8Array): Uint8Array;
  /** A precomputed table for repeated multiplication of one base. */
  g1FixedBase(point: Uint8Array): FixedBase;
  /** Σ scalars[i]·points[i] (Pippenger); `points` is n·64 bytes, `scalars` n·32 bytes. */
  g1Msm(points: Uint8Array, scalars: Uint8Array): Uint8Array;
  /** A precomputed table for repeated MSMs over the same points (n·64 bytes), such as the proof generators. */
  g1MsmTable(points: Uint8Array): MsmTable;
  /**
   * start, start + step, …, start + (count − 1)·step, concatenated (count·64 bytes); count at most
   * G1_PROGRESSION_MAX. Much cheaper per point than g1Add (one field inversion for all of them).
   */
  g1Progression(start: Uint8Array, step: Uint8Array, count: number): Uint8Array;
  /**
   * Each compressed point of `compressed` (n·33 bytes) plus the point beside it in `points` (n·64 bytes), compressed
   * (n·33 bytes): what decompressing, adding and compressing one by one gives, in one call and one field inversion.
   * Throws if a compressed point is invalid or a sum is the point at infinity.
   */
  g1AddToCompressed(compressed: Uint8Array, points: Uint8Array): Uint8Array;
  /** Try-and-increment HashToPoint (docs/cryptography.md § HashToPoint). */
  hashToPoint(data: Uint8Array): Uint8Array;
  /** The generator set for a domain string (`DERO` reproduces the reference vectors; our networks use `UMBRA`). */
  generators(domain: string): Generators;
}
