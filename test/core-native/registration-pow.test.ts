/**
 * The registration grind (core-native/ts/registration-pow.ts) on every implementation, and native ≡ fallback: the
 * same key, nonce and difficulty give byte-identical signatures, whether ground in one call or in chunks.
 */
import t from 'tap';
import { bigintFromBytesBE, bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import type { Core } from '../../core-native/ts/core.js';
import { leadingZeroBits } from '../../core-native/ts/registration-pow.js';
import { modN } from '../../core-native/ts/scalar.js';
import { schnorrVerify } from '../../core-native/ts/schnorr.js';
import { bothCores, forEachCore, nativeMissing } from '../helpers/core-impls.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const secretKey = bigintToBytes32BE(0x5eed_1234_5678_9abcn);
const nonce = bigintToBytes32BE(0xabcdef_0123_4567n << 180n);
/** A registration-shaped encoding: a key-like prefix, then the 64 bytes c ‖ s the grind rewrites. */
const template = Uint8Array.from({ length: 40 + 64 }, (_, i) => (i < 40 ? (i * 37 + 5) & 0xff : 0));

function grind(core: Core, powBits: number, attempts: number, from = nonce): Uint8Array | undefined {
  const out = new Uint8Array(64);
  const G = core.generators('UMBRA').G;
  return core.registrationGrind(G, secretKey, from, template, powBits, attempts, out) ? out : undefined;
}

await forEachCore(t, async (t, core) => {
  const G = core.generators('UMBRA').G;

  t.test('the signature found verifies and its txid has the asked zero bits', async (t) => {
    const before = hex(template);
    const signature = grind(core, 8, 1 << 14);
    if (!signature) throw new Error('no signature in 2^14 attempts at 8 bits');
    t.equal(hex(template), before, 'the template is not modified');
    const encoded = Uint8Array.from(template);
    encoded.set(signature, 40);
    t.ok(leadingZeroBits(core.keccak256(encoded)) >= 8, '8 leading zero bits');
    const Y = core.g1MulSecret(G, secretKey);
    t.ok(schnorrVerify(core, G, Y, { c: signature.subarray(0, 32), s: signature.subarray(32) }), 'it verifies');
  });

  t.test('it gives up after its attempts and leaves out alone', async (t) => {
    const out = new Uint8Array(64).fill(7);
    t.equal(core.registrationGrind(G, secretKey, nonce, template, 200, 500, out), false);
    t.same([...new Set(out)], [7]);
    t.equal(core.registrationGrind(G, secretKey, nonce, template, 0, 0, out), false, 'zero attempts find nothing');
  });

  t.test('bad arguments get clear errors', async (t) => {
    const out = new Uint8Array(64);
    t.throws(() => core.registrationGrind(G, secretKey, nonce, new Uint8Array(10), 0, 1, out), {
      message: /registration encoding must be at least 64 bytes, got 10/,
    });
    t.throws(() => core.registrationGrind(G, secretKey, nonce, template, 257, 1, out), { message: /at most 256/ });
    t.throws(() => core.registrationGrind(G, secretKey, nonce, template, 0, 1, new Uint8Array(3)), {
      message: /output must be 64 bytes, got 3/,
    });
    t.throws(() => core.registrationGrind(G, new Uint8Array(31), nonce, template, 0, 1, out), {
      message: /secret key must be 32 bytes, got 31/,
    });
    t.throws(() => core.registrationGrind(new Uint8Array(64), secretKey, nonce, template, 0, 1, out), {
      message: /G must not be the point at infinity/,
    });
    t.throws(() => core.registrationGrind(G, secretKey, nonce, template, 0, -1, out), { message: /attempts/ });
  });
});

t.test('native and fallback find the same signature', { skip: nativeMissing() }, async (t) => {
  const { native, fallback } = await bothCores();
  // 13 bits: the winner lies past the first batch of 1024 commitments (the native strands advance).
  for (const bits of [0, 3, 10, 13]) {
    const [a, b] = [grind(native, bits, 1 << 16), grind(fallback, bits, 1 << 16)];
    t.ok(a && b, `both find one at ${bits} bits`);
    t.equal(hex(a!), hex(b!), `${bits} bits: byte-identical`);
  }
  // Ground in chunks (as makeRegistration does), the search resumes where the previous chunk stopped.
  const whole = grind(native, 10, 1 << 14)!;
  let found: Uint8Array | undefined;
  for (let k = bigintFromBytesBE(nonce); !found; k = modN(k + 100n))
    found = grind(fallback, 10, 100, bigintToBytes32BE(k));
  t.equal(hex(found), hex(whole), 'chunks of 100 on the fallback ≡ one native call');
  t.equal(grind(native, 200, 300), grind(fallback, 200, 300), 'both give up');
});
