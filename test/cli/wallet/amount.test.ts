import t from 'tap';
import { CliError, CliErrorCode } from '../../../cli/cli-error.js';
import { parseAmount } from '../../../cli/wallet/amount.js';

t.test('coins with up to 5 decimals, and atomic units with a u suffix', async (t) => {
  t.equal(parseAmount('1.5'), 150_000n);
  t.equal(parseAmount('0.00001'), 1n);
  t.equal(parseAmount('2'), 200_000n);
  t.equal(parseAmount('0'), 0n);
  t.equal(parseAmount('150000u'), 150_000n);
  t.equal(parseAmount('18446744073709551615u'), (1n << 64n) - 1n, 'the largest uint64, exactly');
  t.equal(parseAmount('184467440737095.51615'), (1n << 64n) - 1n);
});

t.test('anything else is a clear error', async (t) => {
  for (const bad of ['1.234567', '-1', '', '1e5', '1.', '.5', ' 1', '1,5', '0x10', 'u', '1.5u', 'abc'])
    t.throws(() => parseAmount(bad), { code: CliErrorCode.BadAmount, message: /is not an amount: give coins/ }, bad);
  t.throws(() => parseAmount('18446744073709551616u'), { code: CliErrorCode.BadAmount, message: /largest amount/ });
  t.throws(() => parseAmount('184467440737095.51616', '--deposit'), /^--deposit 184467440737095.51616 is more/);
  t.throws(() => parseAmount('x'), CliError);
});
