/** ElGamal in the exponent on every implementation: the reference vectors and homomorphic round trips. */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { ElGamal } from '../../core-native/ts/elgamal.js';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../core-native/ts/scalar.js';
import { forEachCore } from '../helpers/core-impls.js';

const V = JSON.parse(readFileSync(new URL('../../../test/vectors/curve-keys.json', import.meta.url), 'utf8')).elgamal;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const s32 = (v: number | bigint): Uint8Array => bigintToBytes32BE(BigInt(v));

await forEachCore(t, async (t, core) => {
  const G = core.generators('DERO').G;
  const eg = new ElGamal(core, G);
  const c = (p: Uint8Array): string => hex(core.g1Compress(p));
  const sk = s32(V.sk);
  const Y = core.g1Mul(G, sk);

  t.test('reference vectors (docs/cryptography.md § Test vectors)', async (t) => {
    t.equal(c(Y), V.Y, 'Y = sk·G');
    const ct = eg.encrypt(Y, BigInt(V.b), s32(V.r));
    t.equal(c(ct.L), V.C, 'L = b·G + r·Y');
    t.equal(c(ct.R), V.D, 'R = r·G');
    const registered = eg.credit(eg.registrationBalance(Y), 200n);
    t.equal(c(registered.L), V.registrationPlus200_L, 'registration balance + 200·G: L');
    t.equal(c(registered.R), V.registrationPlus200_R, 'registration balance + 200·G: R = G');
  });

  t.test('decryption and homomorphism', async (t) => {
    const key = s32(randomScalar());
    const Yk = core.g1Mul(G, key);
    const a = eg.encrypt(Yk, 1_230_000n, s32(randomScalar()));
    const b = eg.encrypt(Yk, 45n, s32(randomScalar()));
    t.equal(hex(eg.decryptToPoint(a, key)), hex(eg.amountPoint(1_230_000n)), 'decrypts to b·G');
    t.equal(hex(eg.decryptToPoint(eg.add(a, b), key)), hex(eg.amountPoint(1_230_045n)), 'add');
    t.equal(hex(eg.decryptToPoint(eg.subtract(a, b), key)), hex(eg.amountPoint(1_229_955n)), 'subtract');
    t.equal(
      hex(eg.decryptToPoint(eg.registrationBalance(Yk), key)),
      hex(new Uint8Array(64)),
      'registration balance holds 0',
    );
    t.equal(hex(eg.decryptToPoint(eg.credit(eg.registrationBalance(Yk), 7n), key)), hex(eg.amountPoint(7n)), 'credit');
    t.not(
      hex(eg.decryptToPoint(a, s32(randomScalar()))),
      hex(eg.amountPoint(1_230_000n)),
      'another key does not decrypt',
    );
    t.throws(() => eg.amountPoint(-1n), /uint64/);
    t.throws(() => eg.amountPoint(1n << 64n), /uint64/);
  });

  t.test('66-byte serialisation', async (t) => {
    const ct = eg.encrypt(Y, 99n, s32(randomScalar()));
    const bytes = eg.serialize(ct);
    t.equal(bytes.length, 66);
    const back = eg.deserialize(bytes);
    t.equal(hex(back.L), hex(ct.L));
    t.equal(hex(back.R), hex(ct.R));
    t.throws(() => eg.deserialize(bytes.subarray(0, 65)), /66 bytes/);
    const bad = bytes.slice();
    bad[65] = 2;
    t.throws(() => eg.deserialize(bad), /encrypted balance R/);
  });
});
