import t from 'tap';
import { ByteReader, ByteWriter, compareBytes, equalBytes, fromHex, toHex } from '../../protocol/bytes.js';

t.test('uvarint round trips and Go-compatible encodings', async (t) => {
  const cases: [bigint, string][] = [
    [0n, '00'],
    [1n, '01'],
    [127n, '7f'],
    [128n, '8001'],
    [300n, 'ac02'],
    [1228125400000n, 'c0d7e98fdf23'],
    [(1n << 64n) - 1n, 'ffffffffffffffffff01'],
  ];
  for (const [value, hex] of cases) {
    const bytes = new ByteWriter().uvarint(value).finish();
    t.equal(toHex(bytes), hex, `encodes ${value}`);
    t.equal(new ByteReader(bytes, 'test').uvarint('v'), value, `decodes ${value}`);
  }
  t.throws(() => new ByteWriter().uvarint(1n << 64n), RangeError);
  t.throws(() => new ByteWriter().uvarint(-1), RangeError);
});

t.test('the reader rejects malformed input with clear errors', async (t) => {
  t.throws(() => new ByteReader(fromHex('80'), 'thing').uvarint('count'), {
    name: 'DecodeError',
    message: 'thing: truncated count (at byte 1)',
  });
  t.throws(() => new ByteReader(fromHex('8000'), 'thing').uvarint('count'), { message: /non-canonical count/ });
  t.throws(() => new ByteReader(fromHex('ffffffffffffffffff02'), 'thing').uvarint('v'), {
    message: /overflows 64 bits/,
  });
  t.throws(() => new ByteReader(fromHex('ffffffffffffffffffff01'), 'thing').uvarint('v'), {
    message: /longer than 10 bytes/,
  });
  t.throws(() => new ByteReader(fromHex('05'), 'thing').smallUvarint('tips', 1), {
    message: /tips 5 exceeds the limit of 1/,
  });
  t.throws(() => new ByteReader(fromHex('0102'), 'thing').bytes(3, 'key'), {
    message: /truncated key: needs 3 bytes, 2 left/,
  });
  const reader = new ByteReader(fromHex('0102'), 'thing');
  reader.byte('a');
  t.throws(() => reader.end(), { message: /1 unexpected trailing bytes/ });
});

t.test('views are the data itself, not copies, and are checked like copies', async (t) => {
  const data = fromHex('0102030405060708');
  const reader = new ByteReader(data, 'thing');
  const head = reader.view(2, 'head');
  const [a, b] = reader.views(2, 3, 'pairs');
  t.same([toHex(head), toHex(a!), toHex(b!)], ['0102', '030405', '060708']);
  t.ok(
    [head, a!, b!].every((view) => view.buffer === data.buffer),
    'views of the one buffer',
  );
  reader.end();
  t.not(new ByteReader(data, 'thing').bytes(2, 'head').buffer, data.buffer, 'bytes() still copies');
  t.throws(() => new ByteReader(data, 'thing').view(9, 'key'), { message: /truncated key: needs 9 bytes, 8 left/ });
  t.throws(() => new ByteReader(data, 'thing').views(3, 3, 'points'), {
    message: /truncated points: needs 9 bytes, 8 left/,
  });
});

t.test('fixed-width fields and hex', async (t) => {
  const bytes = new ByteWriter().u64be(0x0102030405060708n).byte(0x1ff).bytes(fromHex('aabb'), 2).finish();
  t.equal(toHex(bytes), '0102030405060708ffaabb');
  const reader = new ByteReader(bytes, 'x');
  t.equal(reader.u64be('ts'), 0x0102030405060708n);
  t.throws(() => new ByteWriter().bytes(new Uint8Array(3), 2), RangeError);
  t.throws(() => fromHex('abc'), { message: /not hexadecimal/ });
  t.throws(() => fromHex('zz'), { message: /not hexadecimal/ });
  t.throws(() => fromHex('aa', 2, 'scid'), { message: 'scid must be 2 bytes (4 hex characters), got 1' });
  t.ok(equalBytes(fromHex('0102'), fromHex('0102')));
  t.notOk(equalBytes(fromHex('0102'), fromHex('0103')));
  t.ok(compareBytes(fromHex('01ff'), fromHex('0200')) < 0);
  t.ok(compareBytes(fromHex('02'), fromHex('0200')) < 0);
  const big = new ByteWriter();
  for (let i = 0; i < 1000; i++) big.bytes(new Uint8Array(7).fill(i & 0xff));
  t.equal(big.finish().length, 7000, 'the writer grows');
});
