import t from 'tap';
import {
  decodeRpcArguments,
  encodeRpcArguments,
  parseRpcArguments,
  type RpcArgument,
  rpcArgumentToExactJson,
} from '../../protocol/rpc-arguments.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unhex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
const HASH = 'ab'.repeat(32);

t.test('reference encodings (docs/cryptography.md § Keys and addresses)', async (t) => {
  t.equal(hex(encodeRpcArguments([{ name: 'D', datatype: 'U', value: 1337n }])), 'a1624455190539');
  t.equal(hex(encodeRpcArguments([{ name: 'D', datatype: 'U', value: 777n }])), 'a1624455190309');
  t.equal(hex(encodeRpcArguments([])), 'a0');
});

t.test('canonical order, every datatype, exact round trip', async (t) => {
  const args: RpcArgument[] = [
    { name: 'comment', datatype: 'S', value: 'héllo ✓' },
    { name: 'D', datatype: 'U', value: 0n },
    { name: 'V', datatype: 'U', value: (1n << 64n) - 1n },
    { name: 'A', datatype: 'H', value: HASH },
    { name: 'W', datatype: 'U', value: 24n },
    { name: 'X', datatype: 'U', value: 65536n },
  ];
  const bytes = encodeRpcArguments(args);
  const shuffled = encodeRpcArguments([...args].reverse());
  t.equal(hex(shuffled), hex(bytes), 'input order does not matter');
  t.equal(bytes[1], 0x62, 'the shortest key comes first');
  const back = decodeRpcArguments(bytes);
  t.same(
    back,
    [...args].sort((a, b) => (a.name < b.name ? -1 : 1)),
    'split back exactly (sorted by name)',
  );
  t.same(decodeRpcArguments(Uint8Array.from([...bytes, 0, 0, 0])), back, 'trailing zero padding is ignored');
  t.strictSame(rpcArgumentToExactJson({ name: 'V', datatype: 'U', value: 5n }), { name: 'V', datatype: 'U', value: 5 });
  t.equal(rpcArgumentToExactJson({ name: 'V', datatype: 'U', value: 1n << 60n }).value, 1n << 60n, 'large U exact');
});

t.test('JSON-shaped input is validated with clear errors', async (t) => {
  t.same(
    parseRpcArguments([
      { name: 'D', datatype: 'U', value: 7 },
      { name: 'H', datatype: 'H', value: HASH.toUpperCase() },
    ]),
    [
      { name: 'D', datatype: 'U', value: 7n },
      { name: 'H', datatype: 'H', value: HASH },
    ],
  );
  t.throws(() => parseRpcArguments({}), /must be an array/);
  t.throws(() => parseRpcArguments([{ name: '', datatype: 'S', value: 'x' }]), /name must be a non-empty string/);
  t.throws(() => parseRpcArguments([{ name: 'a', datatype: 'F', value: 1 }]), /unknown datatype "F"/);
  t.throws(() => parseRpcArguments([{ name: 'a', datatype: 'S', value: 1 }]), /S needs a string/);
  t.throws(() => parseRpcArguments([{ name: 'a', datatype: 'U', value: -1 }]), /out of range/);
  t.throws(() => parseRpcArguments([{ name: 'a', datatype: 'U', value: 1.5 }]), /non-negative integer/);
  t.throws(() => parseRpcArguments([{ name: 'a', datatype: 'U', value: '18446744073709551616' }]), /out of range/);
  t.throws(() => parseRpcArguments([{ name: 'a', datatype: 'U', value: 2 ** 60 }]), /decimal string/);
  t.throws(() => parseRpcArguments([{ name: 'a', datatype: 'H', value: 'zz'.repeat(32) }]), /64 hex/);
  t.throws(() => parseRpcArguments([{ name: 'a', datatype: 'H', value: 'ab' }]), /64 hex/);
  t.throws(
    () =>
      encodeRpcArguments([
        { name: 'a', datatype: 'U', value: 1n },
        { name: 'a', datatype: 'S', value: 'x' },
      ]),
    /more than once/,
  );
});

t.test('non-canonical or malformed bytes are rejected', async (t) => {
  const cases: [string, RegExp][] = [
    ['', /end too early/],
    ['a16244551805', /canonical/], // 5 written with a one-byte head
    ['a262445501', /end too early/], // the second entry is missing
    ['a262445501 00', /argument key/],
    ['a262565501624455 02', /canonical order/],
    ['a16244490539', /unsupported datatype "I"/],
    ['a1614405', /lacks a name/],
    ['a16244556161', /unsigned integer/],
    ['a1624455190539ff', /after the map/],
    ['bf', /major type|indefinite/],
    ['a1624448' + '41ab', /hash 'D' is 1 bytes, expected 32/],
    ['a1624453' + '62c328', /UTF-8/],
  ];
  for (const [input, error] of cases) t.throws(() => decodeRpcArguments(unhex(input.replace(/ /g, ''))), error, input);
});
