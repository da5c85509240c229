import { bech32 } from '@scure/base';
import t from 'tap';
import { decodeAddress, encodeAddress } from '../../../host/protocol/address.js';
import { fromHex } from '../../../host/protocol/bytes.js';

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
    message: 'address is for a test network, not mainnet',
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
