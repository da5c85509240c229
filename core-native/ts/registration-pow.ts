/**
 * Registration proof of work (docs/protocol.md § Transactions, "Registration"): grinding Schnorr signatures over
 * successive nonces until the registration's txid has enough leading zero bits, many attempts per call. Both
 * implementations try the same nonces in the same order, so they find the same signature.
 */

export interface RegistrationPowCore {
  /**
   * Tries nonces k, k + 1, …, k + attempts − 1 (k = `nonce`, 32 bytes big-endian, used mod n) in order: attempt i
   * signs with k + i — T = (k + i)·G, c = Hs(str(Y) ‖ str(T)), s = k + i + c·sk mod n, with Y = sk·G — writes c ‖ s
   * into the last 64 bytes of a copy of `template` (the registration's encoding) and hashes it with Keccak-256.
   * At the first txid with `powBits` leading zero bits it writes c ‖ s into `out` (64 bytes) and returns true;
   * after `attempts` misses it returns false and leaves `out` alone. `template` is not modified.
   */
  registrationGrind(
    G: Uint8Array,
    secretKey: Uint8Array,
    nonce: Uint8Array,
    template: Uint8Array,
    powBits: number,
    attempts: number,
    out: Uint8Array,
  ): boolean;
}

/** Number of leading zero bits of a hash. */
export function leadingZeroBits(hash: Uint8Array): number {
  let bits = 0;
  for (const byte of hash) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}
