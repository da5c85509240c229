import t from 'tap';
import { CliErrorCode } from '../../../cli/cli-error.js';
import { parseCount, parseRingSize, parseScid } from '../../../cli/wallet/flag-values.js';

t.test('ring sizes are powers of two from 2 to 128', async (t) => {
  for (const size of [2, 4, 8, 16, 32, 64, 128]) t.equal(parseRingSize(String(size)), size);
  for (const bad of ['1', '3', '256', '0', '', 'x', '16.0', '-2'])
    t.throws(
      () => parseRingSize(bad),
      { code: CliErrorCode.BadArgument, message: /--ring must be a power of two/ },
      bad,
    );
});

t.test('SCIDs are 64 hex digits; counts positive', async (t) => {
  t.equal(parseScid('AB'.repeat(32)), 'ab'.repeat(32));
  t.throws(() => parseScid('abc', '--asset'), { code: CliErrorCode.BadArgument, message: /^--asset must be 64 hex/ });
  t.equal(parseCount('10', '--limit'), 10);
  for (const bad of ['0', '-1', 'ten', '1.5'])
    t.throws(() => parseCount(bad, '--limit'), /--limit must be a positive whole number/, bad);
});
