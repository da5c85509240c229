/**
 * The 64-bit hashes inside AstroBWTv3 (docs/protocol.md § Proof of work): FNV-1a-64, XXH64 (seed 0) and SipHash-2-4, written
 * from their public specifications with BigInt words masked to 64 bits.
 */
const MASK = (1n << 64n) - 1n;
const rotl = (x: bigint, r: bigint): bigint => ((x << r) | (x >> (64n - r))) & MASK;

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;

export function fnv1a64(data: Uint8Array, end = data.length): bigint {
  let h = FNV_OFFSET;
  for (let i = 0; i < end; i++) h = ((h ^ BigInt(data[i]!)) * FNV_PRIME) & MASK;
  return h;
}

const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;

const readU64 = (view: DataView, offset: number): bigint => view.getBigUint64(offset, true);
const round = (acc: bigint, lane: bigint): bigint => (rotl((acc + lane * P2) & MASK, 31n) * P1) & MASK;
const merge = (acc: bigint, value: bigint): bigint => ((((acc ^ round(0n, value)) * P1) & MASK) + P4) & MASK;

export function xxh64(data: Uint8Array, end = data.length, seed = 0n): bigint {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let offset = 0;
  let h: bigint;
  if (end >= 32) {
    let v1 = (seed + P1 + P2) & MASK;
    let v2 = (seed + P2) & MASK;
    let v3 = seed;
    let v4 = (seed - P1) & MASK;
    for (; offset + 32 <= end; offset += 32) {
      v1 = round(v1, readU64(view, offset));
      v2 = round(v2, readU64(view, offset + 8));
      v3 = round(v3, readU64(view, offset + 16));
      v4 = round(v4, readU64(view, offset + 24));
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & MASK;
    h = merge(merge(merge(merge(h, v1), v2), v3), v4);
  } else {
    h = (seed + P5) & MASK;
  }
  h = (h + BigInt(end)) & MASK;
  for (; offset + 8 <= end; offset += 8)
    h = (((rotl(h ^ round(0n, readU64(view, offset)), 27n) * P1) & MASK) + P4) & MASK;
  if (offset + 4 <= end) {
    h = (((rotl(h ^ ((BigInt(view.getUint32(offset, true)) * P1) & MASK), 23n) * P2) & MASK) + P3) & MASK;
    offset += 4;
  }
  for (; offset < end; offset++) h = (rotl(h ^ ((BigInt(data[offset]!) * P5) & MASK), 11n) * P1) & MASK;
  h ^= h >> 33n;
  h = (h * P2) & MASK;
  h ^= h >> 29n;
  h = (h * P3) & MASK;
  return h ^ (h >> 32n);
}

/** SipHash-2-4 of data[0..end) with the key given as two 64-bit little-endian halves. */
export function siphash24(k0: bigint, k1: bigint, data: Uint8Array, end = data.length): bigint {
  let v0 = k0 ^ 0x736f6d6570736575n;
  let v1 = k1 ^ 0x646f72616e646f6dn;
  let v2 = k0 ^ 0x6c7967656e657261n;
  let v3 = k1 ^ 0x7465646279746573n;
  const sipRound = (): void => {
    v0 = (v0 + v1) & MASK;
    v1 = rotl(v1, 13n);
    v1 ^= v0;
    v0 = rotl(v0, 32n);
    v2 = (v2 + v3) & MASK;
    v3 = rotl(v3, 16n);
    v3 ^= v2;
    v0 = (v0 + v3) & MASK;
    v3 = rotl(v3, 21n);
    v3 ^= v0;
    v2 = (v2 + v1) & MASK;
    v1 = rotl(v1, 17n);
    v1 ^= v2;
    v2 = rotl(v2, 32n);
  };
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let offset = 0;
  for (; offset + 8 <= end; offset += 8) {
    const m = readU64(view, offset);
    v3 ^= m;
    sipRound();
    sipRound();
    v0 ^= m;
  }
  let last = BigInt(end & 0xff) << 56n;
  for (let i = 0; offset + i < end; i++) last |= BigInt(data[offset + i]!) << BigInt(8 * i);
  v3 ^= last;
  sipRound();
  sipRound();
  v0 ^= last;
  v2 ^= 0xffn;
  sipRound();
  sipRound();
  sipRound();
  sipRound();
  return v0 ^ v1 ^ v2 ^ v3;
}
