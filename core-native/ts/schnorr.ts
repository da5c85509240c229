/**
 * Schnorr signatures over BN254 G1 (docs/cryptography.md § Schnorr signatures), used by registrations (no message) and by message
 * signing. The challenge hashes the ASCII debug strings of the points, "bn256.G1(<x hex>, <y hex>)", exactly as the
 * reference does, so that reference signatures verify:
 *   sign:   T = k·G, c = Hs(str(Y) ‖ str(T) [‖ hex(msg)]), s = k + c·sk mod n
 *   verify: T′ = s·G − c·Y, accept iff c = Hs(str(Y) ‖ str(T′) [‖ hex(msg)]).
 */
import { bigintFromBytesBE, bigintToBytes32BE } from './bigint-bytes.js';
import type { Core } from './core.js';
import type { HashCore } from './hash.js';
import { GROUP_ORDER, modN, randomScalar } from './scalar.js';

export interface SchnorrSignature {
  /** The challenge c, 32 bytes big-endian. */
  c: Uint8Array;
  /** The response s, 32 bytes big-endian. */
  s: Uint8Array;
}

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);
const HEX_DIGITS = ascii('0123456789abcdef');
const POINT_OPEN = ascii('bn256.G1(');
const POINT_COMMA = ascii(', ');
const POINT_CLOSE = ascii(')');
/** Length of a point's debug string: the prefix, x and y as 64 hex digits each, the comma and the parenthesis. */
const POINT_TEXT = POINT_OPEN.length + 64 + POINT_COMMA.length + 64 + POINT_CLOSE.length;

/** Writes `bytes` as lowercase hex at `at`; returns the offset after it. */
function writeHex(bytes: Uint8Array, out: Uint8Array, at: number): number {
  for (const byte of bytes) {
    out[at++] = HEX_DIGITS[byte >> 4]!;
    out[at++] = HEX_DIGITS[byte & 15]!;
  }
  return at;
}

/** Writes Go's debug string of an affine point, "bn256.G1(<x hex>, <y hex>)", at `at`; returns the offset after it. */
function writePointText(point: Uint8Array, out: Uint8Array, at: number): number {
  out.set(POINT_OPEN, at);
  at = writeHex(point.subarray(0, 32), out, at + POINT_OPEN.length);
  out.set(POINT_COMMA, at);
  at = writeHex(point.subarray(32, 64), out, at + POINT_COMMA.length);
  out.set(POINT_CLOSE, at);
  return at + POINT_CLOSE.length;
}

/** c = Hs(str(Y) ‖ str(T) [‖ hex(msg)]): exported for signers that choose their nonces' commitments T themselves. */
export function schnorrChallenge(hash: HashCore, Y: Uint8Array, T: Uint8Array, message?: Uint8Array): bigint {
  // Written byte by byte rather than as a string: registration grinding computes tens of thousands of these.
  const text = new Uint8Array(2 * POINT_TEXT + 2 * (message?.length ?? 0));
  let at = writePointText(T, text, writePointText(Y, text, 0));
  if (message) at = writeHex(message, text, at);
  return modN(bigintFromBytesBE(hash.keccak256(text)));
}

/**
 * Signs with secret key sk (32 bytes, used mod n) whose public key is Y = sk·G. `nonce` fixes k (tests and
 * registration grinding may pass one); by default k is random in [1, n−1].
 */
export function schnorrSign(
  core: Core,
  G: Uint8Array,
  sk: Uint8Array,
  message?: Uint8Array,
  nonce?: bigint,
): SchnorrSignature {
  const k = nonce === undefined ? randomScalar() : modN(nonce);
  const Y = core.g1MulSecret(G, sk);
  const T = core.g1MulSecret(G, bigintToBytes32BE(k));
  const c = schnorrChallenge(core, Y, T, message);
  const s = modN(k + c * modN(bigintFromBytesBE(sk)));
  return { c: bigintToBytes32BE(c), s: bigintToBytes32BE(s) };
}

/** Whether (c, s) is a valid signature by Y; malformed input (bad lengths, c or s ≥ n, Y invalid) is simply false. */
export function schnorrVerify(
  core: Core,
  G: Uint8Array,
  Y: Uint8Array,
  signature: SchnorrSignature,
  message?: Uint8Array,
): boolean {
  const { c, s } = signature;
  if (c.length !== 32 || s.length !== 32 || Y.length !== 64 || !core.g1IsValid(Y)) return false;
  const cv = bigintFromBytesBE(c);
  if (cv >= GROUP_ORDER || bigintFromBytesBE(s) >= GROUP_ORDER) return false;
  const T = core.g1Sub(core.g1Mul(G, s), core.g1Mul(Y, c));
  return schnorrChallenge(core, Y, T, message) === cv;
}
