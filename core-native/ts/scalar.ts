/**
 * Scalars of BN254 G1 (docs/cryptography.md § Scalars): integers mod the group order n, 32 bytes big-endian on the
 * wire. Shared by the protocol code written over the Core interface (ElGamal, Schnorr, keys).
 */
import { randomBytes } from 'node:crypto';
import { bigintFromBytesBE } from './bigint-bytes.js';

/** The group order n. */
export const GROUP_ORDER = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;

export function modN(value: bigint): bigint {
  const r = value % GROUP_ORDER;
  return r < 0n ? r + GROUP_ORDER : r;
}

/** A uniformly random scalar in [1, n − 1] (rejection sampling from a CSPRNG). */
export function randomScalar(): bigint {
  for (;;) {
    const k = bigintFromBytesBE(randomBytes(32)) >> 2n; // n < 2^254: keep 254 bits so that few draws are rejected
    if (k > 0n && k < GROUP_ORDER) return k;
  }
}
