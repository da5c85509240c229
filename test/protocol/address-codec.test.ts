/** Integrated addresses, payment proofs and the AddressCodec (with the curve check) on every implementation. */
import { bech32 } from '@scure/base';
import { readFileSync } from 'node:fs';
import t from 'tap';
import {
  AddressErrorCode,
  addressCodec,
  curvePointCheck,
  decodeAddress,
  decodePaymentProof,
  encodeAddress,
  encodeIntegratedAddress,
  encodePaymentProof,
  splitAddress,
} from '../../protocol/address.js';
import { forEachCore } from '../helpers/core-impls.js';

const V = JSON.parse(readFileSync(new URL('../../../test/vectors/curve-keys.json', import.meta.url), 'utf8')).keys;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unhex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
const key = unhex(V.mnemonicPublic);
const dataOf = (address: string): string =>
  hex(bech32.fromWords(bech32.decode(address as `${string}1${string}`, false).words));

t.test('bech32 is plain BIP-173 (its valid-checksum vectors decode)', async (t) => {
  for (const s of [
    'A12UEL5L',
    'abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw',
    'split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w',
  ]) {
    t.doesNotThrow(() => bech32.decode(s as `${string}1${string}`, false), s);
  }
});

t.test('same data layout as the reference addresses, with our prefixes', async (t) => {
  t.equal(
    dataOf('dero1qyyawp87a3ckr9f2j5hnqmxevq3czrr83prc58ylc5889qdt0zf6cqgsr9jmq'),
    dataOf(encodeAddress('mainnet', key)),
  );
  const integrated = encodeIntegratedAddress('mainnet', key, [{ name: 'D', datatype: 'U', value: 1337n }]);
  t.match(integrated, /^umbi1/);
  t.equal(dataOf('deroi1qyyawp87a3ckr9f2j5hnqmxevq3czrr83prc58ylc5889qdt0zf6cqdpvfz92xg98y3myav7'), dataOf(integrated));
  const long = encodeIntegratedAddress('testnet', key, [{ name: 'C', datatype: 'S', value: 'x'.repeat(100) }]);
  t.ok(long.length > 90, 'the 90-character limit is off');
  t.equal(splitAddress(long).args[0]!.value, 'x'.repeat(100));
});

t.test('split integrated addresses', async (t) => {
  const args = [
    { name: 'D', datatype: 'U' as const, value: 1337n },
    { name: 'C', datatype: 'S' as const, value: 'invoice 42' },
  ];
  const split = splitAddress(encodeIntegratedAddress('testnet', key, args), 'simulator');
  t.equal(split.network, 'simulator');
  t.ok(split.integrated);
  t.equal(split.address, encodeAddress('simulator', key));
  t.same(split.args, [args[1], args[0]]);
  t.same(splitAddress(encodeAddress('mainnet', key)).args, []);
  t.throws(() => encodeIntegratedAddress('mainnet', key, []), /must carry arguments/);
  t.throws(
    () => splitAddress(encodeAddress('mainnet', key, unhex('a16244490539'))),
    /integrated address arguments: .*datatype "I"/,
  );
});

t.test('payment proofs', async (t) => {
  const shared = unhex('6a1c637fdd9980d5016d6693e9f3d5c3376342ed88ea284ab20bdbf24183f6ed');
  const proof = encodePaymentProof(key, shared, 123456n);
  t.match(proof, /^umbproof1/);
  t.same(decodePaymentProof(proof), { blinder: key, shared, amount: 123456n });
  t.throws(() => decodePaymentProof(encodeAddress('mainnet', key)), /starts with 'umbproof1', not 'umb1'/);
  t.throws(() => decodePaymentProof('umbproof1xyz'), /not a valid payment proof/);
  t.throws(() => decodePaymentProof('umbproof1xyz'), {
    code: AddressErrorCode.TooShort,
    message:
      'not a valid payment proof: it is too short: 12 characters, a payment proof starting umbproof1 has at least 71',
  });
  t.throws(() => decodePaymentProof(`${proof.slice(0, 12)}b${proof.slice(13)}`), {
    code: AddressErrorCode.BadCharacter,
    message: /^not a valid payment proof: "b" \(character 13\) cannot be in a payment proof; /,
  });
});

await forEachCore(t, async (t, core) => {
  const codec = addressCodec('testnet', core);
  const address = encodeAddress('testnet', key);
  t.ok(codec.isValid(address));
  t.ok(
    codec.isValid(encodeIntegratedAddress('testnet', key, [{ name: 'D', datatype: 'U', value: 1n }])),
    'integrated addresses are valid',
  );
  t.notOk(codec.isValid(encodeAddress('mainnet', key)), 'another network is not valid');
  t.notOk(codec.isValid('umbt1qqqq'), 'garbage is not valid');
  t.notOk(codec.isValid(42 as unknown as string), 'a non-string is not valid');
  t.equal(hex(codec.toRaw(address)), hex(key));
  t.equal(codec.fromRaw(key), address);
  const offCurve = new Uint8Array(33); // x = 0: 3 is not a square
  t.notOk(curvePointCheck(core)(offCurve));
  t.throws(() => codec.fromRaw(offCurve), { name: 'AddressError', message: 'raw address is not a point on the curve' });
  t.throws(() => codec.fromRaw(key.subarray(1)), /33 bytes, got 32/);
  const bad = encodeAddress('testnet', offCurve);
  t.notOk(codec.isValid(bad));
  t.throws(() => codec.toRaw(bad), /not a point on the curve/);
  t.throws(() => decodeAddress(bad, 'testnet', curvePointCheck(core)), /not a point on the curve/);
  t.throws(() => codec.toRaw(encodeAddress('mainnet', key)), /for mainnet, not testnet/);
  t.throws(() => codec.toRaw(bech32.encode('umbt', bech32.toWords(new Uint8Array(20)), false)), /too short/);
});
