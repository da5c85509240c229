/** bigint ↔ bytes: both byte orders, every length around the 8-byte words, the fixed 32-byte forms and their limits. */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import {
  bigintFromBytesBE,
  bigintFromBytesLE,
  bigintToBytes32BE,
  bigintToMinimalBytesBE,
  readUint256BE,
  writeUint256BE,
} from '../../core-native/ts/bigint-bytes.js';

/** The same conversions the slow, obvious way: through hex text. */
const viaHex = (bytes: Uint8Array): bigint =>
  bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);

t.test('reading agrees with the hex reading for every length up to 40, in both byte orders', async (t) => {
  for (let length = 0; length <= 40; length++) {
    const bytes = randomBytes(length);
    t.equal(bigintFromBytesBE(bytes), viaHex(bytes), `${length} bytes big-endian`);
    t.equal(bigintFromBytesLE(bytes), viaHex(Uint8Array.from(bytes).reverse()), `${length} bytes little-endian`);
  }
  t.equal(bigintFromBytesLE(Uint8Array.of(1, 0)), 1n, 'little-endian: the first byte is the least significant');
  t.equal(bigintFromBytesBE(Uint8Array.of(1, 0)), 256n, 'big-endian: the first byte is the most significant');
});

t.test('views into a larger buffer read only their own bytes', async (t) => {
  const buffer = randomBytes(64);
  t.equal(bigintFromBytesBE(buffer.subarray(5, 18)), viaHex(buffer.subarray(5, 18)));
  t.equal(readUint256BE(buffer, 17), viaHex(buffer.subarray(17, 49)), 'readUint256BE at an offset');
});

t.test('the 32-byte forms round-trip and bigintToBytes32BE refuses what does not fit', async (t) => {
  for (const value of [0n, 1n, 255n, 256n, (1n << 64n) + 7n, (1n << 256n) - 1n, viaHex(randomBytes(32))]) {
    const bytes = bigintToBytes32BE(value);
    t.equal(bytes.length, 32);
    t.equal(readUint256BE(bytes), value, `${value} round-trips`);
    t.equal(Buffer.from(bytes).toString('hex'), value.toString(16).padStart(64, '0'), `${value} is big-endian`);
  }
  t.throws(() => bigintToBytes32BE(1n << 256n), { message: /does not fit in 32 bytes/ });
  t.throws(() => bigintToBytes32BE(-1n), { message: /does not fit in 32 bytes/ });
  const out = new Uint8Array(40).fill(0xee);
  writeUint256BE(out, 4, 0x0102n);
  t.same([...out.subarray(0, 4)], [0xee, 0xee, 0xee, 0xee], 'bytes before the offset are kept');
  t.same([...out.subarray(34, 40)], [1, 2, 0xee, 0xee, 0xee, 0xee], 'the value ends 32 bytes after the offset');
});

t.test('minimal big-endian bytes: at least one byte, no leading zeros', async (t) => {
  t.same([...bigintToMinimalBytesBE(0n)], [0]);
  t.same([...bigintToMinimalBytesBE(255n)], [255]);
  t.same([...bigintToMinimalBytesBE(256n)], [1, 0]);
  const big = (1n << 200n) + 3n;
  t.equal(bigintFromBytesBE(bigintToMinimalBytesBE(big)), big);
  t.equal(bigintToMinimalBytesBE(big).length, 26);
  t.throws(() => bigintToMinimalBytesBE(-1n), { message: /negative/ });
});
