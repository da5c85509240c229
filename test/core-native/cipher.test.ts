import { randomBytes } from 'node:crypto';
import t from 'tap';
import { bothCores, forEachCore, nativeMissing } from '../helpers/core-impls.js';
import { loadVectors } from '../helpers/vectors.js';

const vectors = loadVectors<{ xchacha20: { key: string; nonce: string; keystream: string }[] }>('core-cipher.json');
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const unhex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));

await forEachCore(t, async (t, core) => {
  t.test('key stream vectors', async (t) => {
    for (const v of vectors.xchacha20) {
      const zeros = new Uint8Array(v.keystream.length / 2);
      t.equal(hex(core.xchacha20(unhex(v.key), unhex(v.nonce), zeros)), v.keystream);
    }
  });

  t.test('encrypting twice gives the plaintext back; the input is untouched', async (t) => {
    const key = randomBytes(32);
    const nonce = randomBytes(24);
    for (const length of [0, 1, 63, 64, 65, 144, 145, 1000]) {
      const plain = randomBytes(length);
      const sealed = core.xchacha20(key, nonce, plain);
      t.equal(sealed.length, length);
      if (length >= 16) t.not(hex(sealed), hex(plain), `${length} bytes are changed`);
      t.equal(hex(core.xchacha20(key, nonce, sealed)), hex(plain), `${length} bytes round trip`);
    }
  });

  t.test('bad key, nonce or data lengths are rejected with a clear error', async (t) => {
    t.throws(() => core.xchacha20(new Uint8Array(31), new Uint8Array(24), new Uint8Array(1)), /key/);
    t.throws(() => core.xchacha20(new Uint8Array(32), new Uint8Array(12), new Uint8Array(1)), /nonce/);
    t.throws(() => core.xchacha20(new Uint8Array(32), new Uint8Array(24), 'x' as unknown as Uint8Array), /data/);
  });
});

t.test('native and fallback agree', { skip: nativeMissing() }, async (t) => {
  const { native, fallback } = await bothCores();
  let mismatches = 0;
  for (let i = 0; i < 1000; i++) {
    const key = randomBytes(32);
    const nonce = randomBytes(24);
    const data = randomBytes(i % 300);
    if (hex(native.xchacha20(key, nonce, data)) !== hex(fallback.xchacha20(key, nonce, data))) mismatches++;
  }
  t.equal(mismatches, 0, '1000 random key/nonce/data agree');
});
