/** Contract values in bytes: serialisation and storage-gas sizes (docs/contracts.md § Types and values, "Stored form"). */
import t from 'tap';
import { deserializeValue, serializeValue, storedSize } from '../../protocol/contract-values.js';

t.test('sizes as the reference charges them', async (t) => {
  t.equal(storedSize(0n), 2);
  t.equal(storedSize(300n), 3);
  t.equal(storedSize((1n << 64n) - 1n), 11);
  t.equal(storedSize('abcdefghij'), 11);
  t.equal(storedSize(''), 1);
});

t.test('serialisation round trips and is strict', async (t) => {
  t.same([...serializeValue(300n)], [0xac, 0x02, 0x04]);
  t.same([...serializeValue('C')], [0x43, 0x05]);
  for (const value of [0n, 1n, 127n, 128n, 300n, (1n << 64n) - 1n, '', 'C', '\0\xff raw'])
    t.equal(deserializeValue(serializeValue(value)), value);
  t.throws(() => deserializeValue(new Uint8Array()), /empty/);
  t.throws(() => deserializeValue(Uint8Array.from([1, 0x07])), /unknown contract value type byte 0x07/);
  t.throws(() => deserializeValue(Uint8Array.from([0x80, 0x00, 0x04])), /non-canonical/);
  t.throws(() => deserializeValue(Uint8Array.from([0x80, 0x04])), /malformed/);
  t.throws(() => deserializeValue(Uint8Array.from([...Array(10).fill(0xff), 0x01, 0x04])), /1 to 10 bytes/);
  t.throws(() => deserializeValue(Uint8Array.from([...Array(9).fill(0xff), 0x7f, 0x04])), /out of range/);
});
