/**
 * Conversions between unsigned integers (bigint) and bytes, the one copy for the crypto core, the protocol and the
 * tests. Names say the byte order (BE = big-endian, LE = little-endian). The work is done eight bytes at a time
 * with DataView: these conversions sit in the proofs' and the fallback curve's hot loops.
 */
const MASK64 = (1n << 64n) - 1n;
const TWO_256 = 1n << 256n;

const viewOf = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Bytes of any length, big-endian → integer (no bytes → 0). */
export function bigintFromBytesBE(bytes: Uint8Array): bigint {
  const view = viewOf(bytes);
  let value = 0n;
  let i = 0;
  for (; i + 8 <= bytes.length; i += 8) value = (value << 64n) | view.getBigUint64(i);
  for (; i < bytes.length; i++) value = (value << 8n) | BigInt(bytes[i]!);
  return value;
}

/** Bytes of any length, little-endian → integer (no bytes → 0). */
export function bigintFromBytesLE(bytes: Uint8Array): bigint {
  const view = viewOf(bytes);
  let value = 0n;
  let i = bytes.length;
  // The most significant bytes first: the ones above the last whole 8-byte word, then word by word downwards.
  for (; i % 8 !== 0; i--) value = (value << 8n) | BigInt(bytes[i - 1]!);
  for (; i > 0; i -= 8) value = (value << 64n) | view.getBigUint64(i - 8, true);
  return value;
}

/** The 32 bytes at `offset`, big-endian → integer in [0, 2^256). */
export function readUint256BE(bytes: Uint8Array, offset = 0): bigint {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, 32);
  return (
    (view.getBigUint64(0) << 192n) |
    (view.getBigUint64(8) << 128n) |
    (view.getBigUint64(16) << 64n) |
    view.getBigUint64(24)
  );
}

/** Writes a value in [0, 2^256) as 32 bytes big-endian at `offset`. Unchecked (a hot path): pass reduced values. */
export function writeUint256BE(out: Uint8Array, offset: number, value: bigint): void {
  const view = new DataView(out.buffer, out.byteOffset + offset, 32);
  view.setBigUint64(0, value >> 192n);
  view.setBigUint64(8, (value >> 128n) & MASK64);
  view.setBigUint64(16, (value >> 64n) & MASK64);
  view.setBigUint64(24, value & MASK64);
}

/** A value in [0, 2^256) → 32 bytes big-endian; throws for anything else. */
export function bigintToBytes32BE(value: bigint): Uint8Array {
  if (value < 0n || value >= TWO_256) throw new Error(`value does not fit in 32 bytes: ${value}`);
  const out = new Uint8Array(32);
  writeUint256BE(out, 0, value);
  return out;
}

/** A non-negative value → the fewest big-endian bytes that hold it, at least one (0 → [0]). */
export function bigintToMinimalBytesBE(value: bigint): Uint8Array {
  if (value < 0n) throw new Error(`value is negative: ${value}`);
  let length = 1;
  while (value >> BigInt(8 * length) !== 0n) length++;
  const out = new Uint8Array(length);
  let rest = value;
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}
