/**
 * The Noise handshake's and transport's primitives on Node's own OpenSSL: SHA-256, HKDF, X25519 and
 * ChaCha20-Poly1305. The noise package's default mixes in two WebAssembly modules (a SHA-256 and a ChaCha20-Poly1305
 * for small messages) that it instantiates when it is imported, ≈ 10 MiB resident in every process that listens, for a
 * few µs a message (docs/operations.md § Memory). The bundle leaves that default out (scripts/bundle.mjs).
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  hkdfSync,
  randomBytes,
} from 'node:crypto';
import type { ICryptoInterface } from '@chainsafe/libp2p-noise';
import { FrameError } from './wire/frame.js';

const CIPHER = 'chacha20-poly1305';
const TAG_BYTES = 16;
const NO_INFO = new Uint8Array(0);
/** DER prefixes of an X25519 key: PKCS#8 before a 32-byte private key, SubjectPublicKeyInfo before a public one. */
const PKCS8_X25519 = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI_X25519 = Buffer.from('302a300506032b656e032100', 'hex');

/** What Noise passes is a Uint8Array or a list of them (uint8arraylist); both flatten with subarray(). */
type Bytes = Parameters<ICryptoInterface['hashSHA256']>[0];
const flat = (bytes: Bytes): Uint8Array => bytes.subarray();

const privateKeyOf = (secret: Uint8Array) =>
  createPrivateKey({ key: Buffer.concat([PKCS8_X25519, secret]), format: 'der', type: 'pkcs8' });

const keyPairOf = (secret: Uint8Array) => {
  const spki = createPublicKey(privateKeyOf(secret)).export({ format: 'der', type: 'spki' });
  return { privateKey: secret, publicKey: new Uint8Array(spki.subarray(SPKI_X25519.length)) };
};

export const nodeNoiseCrypto: ICryptoInterface = {
  hashSHA256: (data) => createHash('sha256').update(flat(data)).digest(),

  // Noise's HKDF(ck, ikm) with three outputs is RFC 5869's extract (salt ck) and expand (no info) to 96 bytes.
  getHKDF: (ck, ikm) => {
    const okm = new Uint8Array(hkdfSync('sha256', ikm, ck, NO_INFO, 96));
    return [okm.subarray(0, 32), okm.subarray(32, 64), okm.subarray(64, 96)];
  },

  // Any 32 bytes are an X25519 private key (the scalar is clamped when it is used).
  generateX25519KeyPair: () => keyPairOf(new Uint8Array(randomBytes(32))),

  generateX25519KeyPairFromSeed: (seed) => keyPairOf(seed),

  generateX25519SharedKey: (privateKey, publicKey) =>
    diffieHellman({
      privateKey: privateKeyOf(flat(privateKey)),
      publicKey: createPublicKey({ key: Buffer.concat([SPKI_X25519, flat(publicKey)]), format: 'der', type: 'spki' }),
    }),

  chaCha20Poly1305Encrypt: (plaintext, nonce, ad, k) => {
    const text = flat(plaintext);
    const cipher = createCipheriv(CIPHER, k, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(ad, { plaintextLength: text.byteLength });
    return Buffer.concat([cipher.update(text), cipher.final(), cipher.getAuthTag()]);
  },

  // A wrong key, nonce, associated data or tag makes final() throw: the connection ends.
  chaCha20Poly1305Decrypt: (ciphertext, nonce, ad, k) => {
    const sealed = flat(ciphertext);
    if (sealed.byteLength < TAG_BYTES) throw new FrameError('a Noise message shorter than its tag');
    const text = sealed.subarray(0, sealed.byteLength - TAG_BYTES);
    const decipher = createDecipheriv(CIPHER, k, nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(ad, { plaintextLength: text.byteLength });
    decipher.setAuthTag(sealed.subarray(text.byteLength));
    return Buffer.concat([decipher.update(text), decipher.final()]);
  },
};
