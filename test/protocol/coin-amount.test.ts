import t from 'tap';
import {
  AmountError,
  AmountErrorCode,
  coinsText,
  describeAmount,
  formatCoins,
  parseAmount,
} from '../../protocol/coin-amount.js';

t.test('coins for people', async (t) => {
  t.equal(formatCoins(150_000n), '1.50000');
  t.equal(formatCoins(1n), '0.00001');
  t.equal(formatCoins((1n << 64n) - 1n), '184467440737095.51615');
  t.equal(coinsText(99_999_900_060n), '999999.00060 UMB');
  t.equal(describeAmount(120n), '0.00120 UMB (120 atomic units)');
  t.equal(describeAmount(120n, 'token'), '0.00120 (120 atomic units)', 'a token has no unit of its own');
});

t.test('coins with up to 5 decimals, and atomic units with a u suffix', async (t) => {
  t.equal(parseAmount('1.5', 'amount'), 150_000n);
  t.equal(parseAmount('0.00001', 'amount'), 1n);
  t.equal(parseAmount('2', 'amount'), 200_000n);
  t.equal(parseAmount('0', 'amount'), 0n);
  t.equal(parseAmount('150000u', 'amount'), 150_000n);
  t.equal(parseAmount('18446744073709551615u', 'amount'), (1n << 64n) - 1n, 'the largest uint64, exactly');
  t.equal(parseAmount('184467440737095.51615', 'amount'), (1n << 64n) - 1n);
});

t.test('anything else is a clear error that names what was read', async (t) => {
  for (const bad of ['1.234567', '-1', '', '1e5', '1.', '.5', ' 1', '1,5', '0x10', 'u', '1.5u', 'abc'])
    t.throws(
      () => parseAmount(bad, '--coinvalue'),
      {
        code: AmountErrorCode.Malformed,
        message: /^--coinvalue .* is not an amount: give coins with up to 5 decimals/,
      },
      bad,
    );
  t.throws(() => parseAmount('18446744073709551616u', 'amount'), {
    code: AmountErrorCode.TooLarge,
    message: /largest amount/,
  });
  t.throws(() => parseAmount('184467440737095.51616', '--deposit'), /^--deposit 184467440737095.51616 is more/);
  t.throws(() => parseAmount('x', 'amount'), AmountError);
});
