import t from 'tap';
import { CliErrorCode } from '../../../cli/cli-error.js';
import { parseContractArgument, parseContractArguments } from '../../../cli/wallet/contract-argument.js';

const hash = 'AB'.repeat(32);

t.test('explicit types', async (t) => {
  t.same(parseContractArgument('amount:U=5', false), { name: 'amount', datatype: 'U', value: 5n });
  t.same(parseContractArgument('name:S=alice=bob', false), { name: 'name', datatype: 'S', value: 'alice=bob' });
  t.same(parseContractArgument('name:S=', false), { name: 'name', datatype: 'S', value: '' });
  t.same(parseContractArgument(`key:h=${hash}`, false), { name: 'key', datatype: 'H', value: hash.toLowerCase() });
});

t.test('inferred types: all digits is U, else S; never inferred for payloads', async (t) => {
  t.same(parseContractArgument('n=42', true), { name: 'n', datatype: 'U', value: 42n });
  t.same(parseContractArgument('name=alice1', true), { name: 'name', datatype: 'S', value: 'alice1' });
  t.same(parseContractArgument('x=-3', true), { name: 'x', datatype: 'S', value: '-3' });
  t.throws(() => parseContractArgument('n=42', false), { code: CliErrorCode.BadArgument, message: /NAME:TYPE=VALUE/ });
});

t.test('bad arguments are clear errors', async (t) => {
  const cases: [string, RegExp][] = [
    ['noequals', /must be NAME:TYPE=VALUE or NAME=VALUE/],
    ['=5', /must be NAME:TYPE=VALUE/],
    ['a:X=1', /unknown datatype "X"/],
    ['a:U=1.5', /datatype U needs a non-negative integer/],
    ['a:U=18446744073709551616', /out of range for U/],
    ['a:H=abcd', /datatype H needs 64 hex characters/],
  ];
  for (const [text, message] of cases)
    t.throws(() => parseContractArgument(text, true), { code: CliErrorCode.BadArgument, message }, text);
  t.throws(() => parseContractArguments(['a=1', 'a:S=x'], true), /argument 'a' is given more than once/);
});
