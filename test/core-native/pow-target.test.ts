import t from 'tap';
import { meetsTarget } from '../../core-native/ts/pow-target.js';

t.test('hashes are compared as little-endian integers with ⌊2^256 / D⌋', async (t) => {
  const zero = new Uint8Array(32);
  const max = new Uint8Array(32).fill(0xff);
  t.ok(meetsTarget(zero, 1n << 200n), 'a zero hash meets any difficulty');
  t.ok(meetsTarget(max, 1n), 'difficulty 1 accepts every hash');
  t.notOk(meetsTarget(max, 2n), 'the largest hash fails difficulty 2');
  // 2^255 − 1 (top byte 0x7f in little-endian) is below 2^255 = 2^256/2; 2^255 + 1 is not.
  const justBelow = new Uint8Array(32).fill(0xff);
  justBelow[31] = 0x7f;
  t.ok(meetsTarget(justBelow, 2n));
  const justAbove = new Uint8Array(32);
  justAbove[31] = 0x80;
  justAbove[0] = 1;
  t.notOk(meetsTarget(justAbove, 2n), 'byte 31 is the most significant');
  const highFirstByte = new Uint8Array(32);
  highFirstByte[0] = 0xff;
  t.ok(meetsTarget(highFirstByte, 1n << 240n), 'byte 0 is the least significant');
  t.throws(() => meetsTarget(zero, 0n), /difficulty must be positive/);
  t.throws(() => meetsTarget(new Uint8Array(31), 1n), /32 bytes/);
});
