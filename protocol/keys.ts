/**
 * Account keys (docs/cryptography.md § Scalars, § Keys and addresses): the secret key is 32 bytes big-endian, used mod n (a key from a
 * mnemonic may be ≥ n; it is kept as is so that it maps back to the same words); the public key is sk·G with G
 * the network's value base, carried as 33 compressed bytes.
 */
import type { Core } from '../core-native/ts/core.js';
import { bigintFromBytesBE, bigintToBytes32BE } from '../core-native/ts/bigint-bytes.js';
import { UmbraError } from '../core-native/ts/errors.js';
import { modN, randomScalar } from '../core-native/ts/scalar.js';

export interface KeyPair {
  secretKey: Uint8Array;
  /** The 33-byte compressed public key. */
  publicKey: Uint8Array;
}

export const KeyErrorCode = {
  /** A secret key of the wrong length or text, or zero modulo the group order. */
  BadSecretKey: 'key.bad-secret-key',
} as const;
export type KeyErrorCode = (typeof KeyErrorCode)[keyof typeof KeyErrorCode];

export class KeyError extends UmbraError<KeyErrorCode> {
  override readonly name = 'KeyError';
  constructor(message: string) {
    super(KeyErrorCode.BadSecretKey, message);
  }
}

/** compressed(sk·G) for the generator domain (e.g. NETWORKS[n].generatorDomain); rejects sk ≡ 0 mod n. */
export function publicKeyOf(core: Core, secretKey: Uint8Array, domain: string): Uint8Array {
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== 32)
    throw new KeyError(`a secret key is 32 bytes, got ${secretKey?.length}`);
  if (modN(bigintFromBytesBE(secretKey)) === 0n) throw new KeyError('secret key is zero modulo the group order');
  return core.g1Compress(core.g1MulSecret(core.generators(domain).G, secretKey));
}

/** A fresh key pair with sk uniform in [1, n − 1]. */
export function generateKeyPair(core: Core, domain: string): KeyPair {
  const secretKey = bigintToBytes32BE(randomScalar());
  return { secretKey, publicKey: publicKeyOf(core, secretKey, domain) };
}

/** Parses 64 hex digits as a secret key. */
export function secretKeyFromHex(text: string): Uint8Array {
  if (typeof text !== 'string' || !/^[0-9a-fA-F]{64}$/.test(text))
    throw new KeyError('a secret key is 64 hex characters');
  return Uint8Array.from(Buffer.from(text, 'hex'));
}
