/** Parameter checks: strict objects (unknown keys refused with a suggestion) and exact uint64s. */
import t from 'tap';
import { InvalidParamsError } from '../../../host/rpc/errors.js';
import { p } from '../../../host/rpc/params.js';

const refused = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidParamsError) return error.message;
    throw error;
  }
  throw new Error('the check accepted the value');
};

t.test('a strict object refuses unknown keys, naming the closest known one', async (t) => {
  const item = p.strictObject({ amount: p.optional(p.uint64(), 0n), burn: p.optional(p.uint64(), 0n) });
  const check = p.strictObject({ transfers: p.optional(p.array(item), []), fees: p.optional(p.uint64(), 0n) });
  t.same(check({ transfers: [{ Amount: 5 }], FEES: 2 }, 'params'), { transfers: [{ amount: 5n, burn: 0n }], fees: 2n });
  t.equal(
    refused(() => check({ transfers: [], feez: 1 }, 'params')),
    "invalid params: unknown field 'feez' (did you mean 'fees'?)",
  );
  t.equal(
    refused(() => check({ transfers: [{ amount: 1 }, { ammount: 1 }] }, 'params')),
    "invalid params: unknown field 'transfers[1].ammount' (did you mean 'amount'?)",
  );
  t.equal(
    refused(() => check({ colour: 'blue' }, 'params')),
    "invalid params: unknown field 'colour' (known fields: transfers, fees)",
  );
  t.equal(
    refused(() => check([], 'params')),
    "invalid params: 'params' must be an object, got an array",
    'the shape is still checked as by object',
  );
});

t.test('a plain object still ignores unknown keys', async (t) => {
  t.same(p.object({ height: p.uint() })({ height: 3, extra: true }, 'params'), { height: 3 });
});

t.test('uint64 is exact up to 2^64 − 1 and refuses anything else', async (t) => {
  const check = p.uint64();
  t.equal(check(0, 'amount'), 0n);
  t.equal(check(9007199254740991, 'amount'), 9007199254740991n);
  t.equal(check(18446744073709551615n, 'amount'), 18446744073709551615n, 'a bigint from the exact parser');
  const expected = "invalid params: 'amount' must be a non-negative integer up to 18446744073709551615, got";
  t.equal(
    refused(() => check(18446744073709551616n, 'amount')),
    `${expected} number 18446744073709551616`,
  );
  t.equal(
    refused(() => check(-1, 'amount')),
    `${expected} number -1`,
  );
  t.equal(
    refused(() => check(1.5, 'amount')),
    `${expected} number 1.5`,
  );
  t.equal(
    refused(() => check(1e20, 'amount')),
    `${expected} number 100000000000000000000`,
  );
  t.equal(
    refused(() => check('5', 'amount')),
    `${expected} string "5"`,
  );
  t.equal(
    refused(() => p.uint()(9007199254740993n, 'height')),
    "invalid params: 'height' must be a non-negative integer, got number 9007199254740993",
    'a check that wants a safe integer names an exact bigint as the number it was',
  );
});

t.test('a refused value holding an exact bigint is still described', async (t) => {
  t.equal(
    refused(() => p.string()({ amount: 9007199254740993n }, 'destination')),
    `invalid params: 'destination' must be a string, got object {"amount":9007199254740993}`,
  );
});

t.test('a missing required field is said to be missing', async (t) => {
  t.equal(
    refused(() => p.string()(undefined, 'address')),
    "invalid params: 'address' must be a string, got nothing (the field is missing)",
  );
});
