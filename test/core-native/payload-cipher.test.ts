/** Shared secrets and the per-receiver payload cipher (docs/cryptography.md § Payloads) on every implementation. */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { openPayload, PAYLOAD_BYTES, sealPayload } from '../../core-native/ts/payload-cipher.js';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { payloadKey, sharedSecret } from '../../core-native/ts/shared-secret.js';
import { forEachCore } from '../helpers/core-impls.js';

const V = JSON.parse(readFileSync(new URL('../../../test/vectors/curve-keys.json', import.meta.url), 'utf8')).elgamal;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const s32 = (v: number): Uint8Array => bigintToBytes32BE(BigInt(v));

await forEachCore(t, async (t, core) => {
  const G = core.generators('DERO').G;
  const Y = core.g1Mul(G, s32(V.sk));
  const D = core.g1Mul(G, s32(V.r));

  t.test('reference vectors (docs/cryptography.md § Test vectors)', async (t) => {
    const shared = sharedSecret(core, s32(V.r), Y);
    t.equal(hex(shared), V.shared, 'sender: K(compressed(r·Y))');
    t.equal(hex(sharedSecret(core, s32(V.sk), D)), V.shared, 'receiver: K(compressed(sk·D)) is the same');
    const key = payloadKey(core, shared, Y);
    t.equal(hex(key), V.payloadKey, 'payload key');
    const sealed = sealPayload(core, key, 0, new Uint8Array(0));
    t.equal(hex(sealed.subarray(0, 16)), V.keystream16, 'an all-zero payload shows the key stream');
  });

  t.test('seal and open round trip', async (t) => {
    const key = payloadKey(core, sharedSecret(core, s32(V.r), Y), Y);
    const args = Uint8Array.from(Buffer.from('a1624455190539', 'hex'));
    const sealed = sealPayload(core, key, 3, args);
    t.equal(sealed.length, PAYLOAD_BYTES);
    const opened = openPayload(core, key, sealed);
    t.equal(opened.senderIndex, 3);
    t.equal(hex(opened.args.subarray(0, args.length)), hex(args));
    t.ok(
      opened.args.subarray(args.length).every((b) => b === 0),
      'zero padded to 144 bytes',
    );
    t.equal(opened.args.length, 144);
    t.throws(() => sealPayload(core, key, 0, new Uint8Array(145)), /at most 144/);
    t.throws(() => sealPayload(core, key, 256, args), /ring index/);
    t.throws(() => openPayload(core, key, sealed.subarray(0, 144)), /145 bytes/);
    t.throws(() => payloadKey(core, new Uint8Array(31), Y), /32 bytes/);
  });
});
