/**
 * The node's Noise primitives on Node's crypto agree with the noise package's own (plain JavaScript) ones, byte for
 * byte, so a node talks with any libp2p peer; a message that was tampered with or is shorter than its tag is refused.
 */
import { pureJsCrypto } from '@chainsafe/libp2p-noise';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { nodeNoiseCrypto } from '../../../plugins/p2p/noise-crypto.js';
import { FrameError } from '../../../plugins/p2p/wire/frame.js';

const bytes = (n: number) => new Uint8Array(randomBytes(n));
const hex = (value: Uint8Array | { subarray(): Uint8Array }) => Buffer.from(value.subarray()).toString('hex');

t.test('SHA-256 and HKDF', async (t) => {
  for (const size of [0, 1, 64, 1500]) {
    const data = bytes(size);
    t.equal(hex(nodeNoiseCrypto.hashSHA256(data)), hex(pureJsCrypto.hashSHA256(data)), `SHA-256 of ${size} bytes`);
  }
  const ck = bytes(32);
  const ikm = bytes(32);
  t.same(nodeNoiseCrypto.getHKDF(ck, ikm).map(hex), pureJsCrypto.getHKDF(ck, ikm).map(hex), 'the three HKDF outputs');
});

t.test('X25519 key pairs and shared keys', async (t) => {
  const seed = bytes(32);
  t.equal(
    hex(nodeNoiseCrypto.generateX25519KeyPairFromSeed(seed).publicKey),
    hex(pureJsCrypto.generateX25519KeyPairFromSeed(seed).publicKey),
    'the public key of a seed',
  );
  const ours = nodeNoiseCrypto.generateX25519KeyPair();
  t.equal(ours.privateKey.length, 32);
  t.equal(hex(ours.publicKey), hex(pureJsCrypto.generateX25519KeyPairFromSeed(ours.privateKey).publicKey));
  const theirs = pureJsCrypto.generateX25519KeyPair();
  t.equal(
    hex(nodeNoiseCrypto.generateX25519SharedKey(ours.privateKey, theirs.publicKey)),
    hex(pureJsCrypto.generateX25519SharedKey(theirs.privateKey, ours.publicKey)),
    'both sides derive the same shared key',
  );
});

t.test('ChaCha20-Poly1305 both ways, and what is refused', async (t) => {
  const key = bytes(32);
  const nonce = bytes(12);
  const ad = bytes(32);
  for (const size of [0, 100, 1199, 1200, 65_519]) {
    const plaintext = bytes(size);
    const sealed = nodeNoiseCrypto.chaCha20Poly1305Encrypt(plaintext, nonce, ad, key);
    t.equal(hex(sealed), hex(pureJsCrypto.chaCha20Poly1305Encrypt(plaintext, nonce, ad, key)), `${size} bytes sealed`);
    t.equal(hex(pureJsCrypto.chaCha20Poly1305Decrypt(sealed, nonce, ad, key)), hex(plaintext), 'opened by the other');
    t.equal(hex(nodeNoiseCrypto.chaCha20Poly1305Decrypt(sealed, nonce, ad, key)), hex(plaintext), 'and by ours');
  }
  const sealed = new Uint8Array(nodeNoiseCrypto.chaCha20Poly1305Encrypt(bytes(64), nonce, ad, key).subarray());
  sealed[10]! ^= 1;
  t.throws(() => nodeNoiseCrypto.chaCha20Poly1305Decrypt(sealed, nonce, ad, key), 'a changed byte is refused');
  t.throws(() => nodeNoiseCrypto.chaCha20Poly1305Decrypt(bytes(15), nonce, ad, key), FrameError);
});
