/** Schnorr signatures (docs/cryptography.md § Schnorr signatures) on every implementation, including the reference's own signature. */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../core-native/ts/scalar.js';
import { schnorrSign, schnorrVerify } from '../../core-native/ts/schnorr.js';
import { forEachCore } from '../helpers/core-impls.js';

const R = JSON.parse(
  readFileSync(new URL('../../../test/vectors/curve-keys.json', import.meta.url), 'utf8'),
).registration;
const unhex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));

await forEachCore(t, async (t, core) => {
  const G = core.generators('DERO').G;

  t.test('the reference registration signature verifies', async (t) => {
    const Y = core.g1Decompress(unhex(R.key));
    const sig = { c: unhex(R.C), s: unhex(R.S) };
    t.ok(schnorrVerify(core, G, Y, sig), 'valid');
    const tampered = { c: sig.c, s: sig.s.slice() };
    tampered.s[31]! ^= 1;
    t.notOk(schnorrVerify(core, G, Y, tampered), 'a changed s fails');
    t.notOk(schnorrVerify(core, G, Y, sig, new Uint8Array([1])), 'a message changes the challenge');
  });

  t.test('sign and verify round trips', async (t) => {
    const sk = bigintToBytes32BE(randomScalar());
    const Y = core.g1Mul(G, sk);
    const message = new TextEncoder().encode('hello umbra');
    const sig = schnorrSign(core, G, sk, message);
    t.ok(schnorrVerify(core, G, Y, sig, message), 'message signature verifies');
    t.notOk(schnorrVerify(core, G, Y, sig, new TextEncoder().encode('hello umbrA')), 'another message fails');
    t.notOk(schnorrVerify(core, G, core.g1Add(Y, G), sig, message), 'another key fails');
    const reg = schnorrSign(core, G, sk);
    t.ok(schnorrVerify(core, G, Y, reg), 'registration signature (no message) verifies');
    const fixed = [schnorrSign(core, G, sk, message, 42n), schnorrSign(core, G, sk, message, 42n)];
    t.same(fixed[0], fixed[1], 'a fixed nonce gives a deterministic signature');
    const big = unhex('b0ef6bd527b9b23b9ceef70dc8b4cd1ee83ca14541964e764ad23f5151204f0f'); // > n: used mod n
    t.ok(
      schnorrVerify(core, G, core.g1Mul(G, big), schnorrSign(core, G, big, message), message),
      'a key ≥ n signs as sk mod n',
    );
    t.notOk(
      schnorrVerify(core, G, Y, { c: sig.c.subarray(0, 31), s: sig.s }, message),
      'short c is invalid, not a crash',
    );
    t.notOk(schnorrVerify(core, G, new Uint8Array(64).fill(1), sig, message), 'invalid key is invalid, not a crash');
  });
});
