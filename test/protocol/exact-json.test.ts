/** JSON text that keeps integers beyond 2^53 exact, and is JSON.parse / JSON.stringify for everything else. */
import t from 'tap';
import { parseExactJson, stringifyExactJson } from '../../protocol/exact-json.js';

t.test('integers that are not safe integers are read as exact bigints', async (t) => {
  t.same(parseExactJson('{"a":18446744073709551615,"b":[9007199254740993,-9007199254740993]}'), {
    a: 18446744073709551615n,
    b: [9007199254740993n, -9007199254740993n],
  });
  t.equal(parseExactJson('9007199254740991'), 9007199254740991, 'the largest safe integer stays a number');
  t.equal(parseExactJson('1e20'), 1e20, 'an exponent form is a number, as JSON.parse reads it');
  t.equal(
    parseExactJson('12345678901234567.5'),
    12345678901234568,
    'a fraction is a number, rounded as JSON.parse does',
  );
  t.same(
    parseExactJson('{"hex":"00112233445566778899","n":1}'),
    { hex: '00112233445566778899', n: 1 },
    'digits inside strings are left alone',
  );
  t.throws(() => parseExactJson('{"a":12345678901234567890'), SyntaxError, 'bad JSON fails as JSON.parse does');
});

t.test('bigints are written as JSON numbers with all their digits', async (t) => {
  t.equal(
    stringifyExactJson({ value: 18446744073709551615n, list: [1n << 60n, 5] }),
    '{"value":18446744073709551615,"list":[1152921504606846976,5]}',
  );
  const plain = { a: 1, b: 'x', c: [true, null, 2.5], d: { e: -3 } };
  t.equal(stringifyExactJson(plain), JSON.stringify(plain), 'without bigints the text is what JSON.stringify writes');
  t.same(parseExactJson(stringifyExactJson({ v: 2n ** 64n - 1n })), { v: 2n ** 64n - 1n }, 'round trip');
});
