/**
 * Schnorr signatures over BN254 G1 (docs/cryptography.md § Schnorr signatures), used by registrations (no message) and by message
 * signing. The challenge hashes the ASCII debug strings of the points, "bn256.G1(<x hex>, <y hex>)", exactly as the
 * reference does, so that reference signatures verify:
 *   sign:   T = k·G, c = Hs(str(Y) ‖ str(T) [‖ hex(msg)]), s = k + c·sk mod n
 *   verify: T′ = s·G − c·Y, accept iff c = Hs(str(Y) ‖ str(T′) [‖ hex(msg)]).
 */
import { bigintFromBytesBE, bigintToBytes32BE } from './bigint-bytes.js';
import type { Core } from './core.js';
import { GROUP_ORDER, modN, randomScalar } from './scalar.js';

export interface SchnorrSignature {
  /** The challenge c, 32 bytes big-endian. */
  c: Uint8Array;
  /** The response s, 32 bytes big-endian. */
  s: Uint8Array;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** Go's debug string of an affine point (x and y as 64 lowercase hex digits). */
function pointString(point: Uint8Array): string {
  return `bn256.G1(${hex(point.subarray(0, 32))}, ${hex(point.subarray(32, 64))})`;
}

function challenge(core: Core, Y: Uint8Array, T: Uint8Array, message: Uint8Array | undefined): bigint {
  const text = pointString(Y) + pointString(T) + (message ? hex(message) : '');
  return modN(bigintFromBytesBE(core.keccak256(new TextEncoder().encode(text))));
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
  const c = challenge(core, Y, T, message);
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
  return challenge(core, Y, T, message) === cv;
}
