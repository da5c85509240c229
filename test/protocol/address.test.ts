import { bech32 } from '@scure/base';
import t from 'tap';
import { AddressErrorCode, decodeAddress, encodeAddress } from '../../protocol/address.js';
import { fromHex } from '../../protocol/bytes.js';

const key = fromHex('0f9c94b22c3e83d91db09d45e4864c23013f9342e0fa189642107f6d7305217301');

t.test('addresses round trip with the network prefixes', async (t) => {
  const mainnet = encodeAddress('mainnet', key);
  const testnet = encodeAddress('testnet', key);
  t.match(mainnet, /^umb1/);
  t.match(testnet, /^umbt1/);
  t.equal(encodeAddress('simulator', key), testnet, 'the simulator shares the testnet prefix');
  t.same(decodeAddress(mainnet, 'mainnet'), {
    network: 'mainnet',
    publicKey: key,
    integrated: false,
    payload: new Uint8Array(0),
  });
  t.equal(decodeAddress(testnet, 'simulator').network, 'simulator');
  t.equal(decodeAddress(testnet).network, 'testnet');
  const integrated = encodeAddress('testnet', key, new Uint8Array([0xa1, 0x62, 0x44, 0x55, 0x19, 0x05, 0x39]));
  t.match(integrated, /^umbti1/);
  const decoded = decodeAddress(integrated, 'testnet');
  t.ok(decoded.integrated);
  t.same(decoded.payload, new Uint8Array([0xa1, 0x62, 0x44, 0x55, 0x19, 0x05, 0x39]));
});

t.test('bad addresses are clear errors', async (t) => {
  const good = encodeAddress('testnet', key);
  t.throws(() => decodeAddress(good, 'mainnet'), {
    name: 'AddressError',
    message: 'address is for testnet or simulator, not mainnet',
  });
  t.throws(() => decodeAddress(encodeAddress('mainnet', key), 'testnet'), {
    message: 'address is for mainnet, not testnet',
  });
  const flipped = good.slice(0, -1) + (good.endsWith('q') ? 'p' : 'q');
  t.throws(() => decodeAddress(flipped), { message: /not a valid address: .*checksum/i });
  t.throws(() => decodeAddress('hello'), { message: /not a valid address/ });
  t.throws(() => decodeAddress(bech32.encode('xyz', bech32.toWords(new Uint8Array([1, ...key])), false)), {
    message: /unknown address prefix 'xyz'/,
  });
  t.throws(
    () => decodeAddress(bech32.encode('umbt', bech32.toWords(new Uint8Array([1, ...key.slice(0, 20)])), false)),
    { message: /too short/ },
  );
  t.throws(() => decodeAddress(bech32.encode('umbt', bech32.toWords(new Uint8Array([2, ...key])), false)), {
    message: /unsupported address version 2/,
  });
  t.throws(() => decodeAddress(bech32.encode('umbt', bech32.toWords(new Uint8Array([1, ...key, 5])), false)), {
    message: /plain address holds exactly 33 key bytes/,
  });
  t.throws(() => decodeAddress(bech32.encode('umbti', bech32.toWords(new Uint8Array([1, ...key])), false)), {
    message: /must carry arguments/,
  });
  t.throws(() => decodeAddress(good, 'testnet', () => false), { message: 'address key is not a point on the curve' });
  t.throws(() => encodeAddress('testnet', key.slice(1)), { message: /33 bytes/ });
});

t.test('a malformed address says what is wrong with it, with a code', async (t) => {
  const good = encodeAddress('testnet', key);
  const rejects = (text: string, code: AddressErrorCode, message: RegExp | string, expected?: 'mainnet') =>
    t.throws(() => decodeAddress(text, expected), { name: 'AddressError', code, message }, JSON.stringify(text));
  rejects('', AddressErrorCode.Empty, 'not a valid address: it is empty');
  rejects('hello', AddressErrorCode.UnknownPrefix, /does not start with umb1, umbt1, umbi1 or umbti1$/);
  rejects(
    'xyz1qqqq',
    AddressErrorCode.UnknownPrefix,
    "unknown address prefix 'xyz' (expected umb, umbt, umbi or umbti)",
  );
  rejects(
    'umb1qqq',
    AddressErrorCode.TooShort,
    'not a valid address: it is too short: 7 characters, an address starting umb1 has 65',
  );
  rejects(good.slice(0, -1), AddressErrorCode.TooShort, /too short: 65 characters, an address starting umbt1 has 66$/);
  rejects(`${good}qq`, AddressErrorCode.TooLong, /too long: 68 characters, an address starting umbt1 has 66$/);
  rejects(
    'umbti1qqq',
    AddressErrorCode.TooShort,
    /too short: 9 characters, an address starting umbti1 has at least 67$/,
  );
  const typo = good.slice(0, 20) + (good[20] === 'q' ? 'p' : 'q') + good.slice(21);
  rejects(typo, AddressErrorCode.BadChecksum, 'not a valid address: it has a typo (its checksum does not match)');
  rejects(
    'umbt1notanaddress',
    AddressErrorCode.BadCharacter,
    /"o" \(character 7\) cannot be in an address; .*other than 1, b, i and o$/,
  );
  rejects(`${good} `, AddressErrorCode.BadCharacter, /" " \(character 67\)/);
  rejects(good.slice(0, 10).toUpperCase() + good.slice(10), AddressErrorCode.MixedCase, /mixes upper- and lower-case/);
  rejects(good, AddressErrorCode.WrongNetwork, 'address is for testnet or simulator, not mainnet', 'mainnet');
  t.equal(decodeAddress(good.toUpperCase()).network, 'testnet', 'an address in capitals is the same address');
});
