import t from 'tap';
import { describeAmount, formatCoins } from '../../protocol/coin-amount.js';

t.test('coins for people', async (t) => {
  t.equal(formatCoins(150_000n), '1.50000');
  t.equal(formatCoins(1n), '0.00001');
  t.equal(formatCoins((1n << 64n) - 1n), '184467440737095.51615');
  t.equal(describeAmount(120n), '0.00120 (120 atomic units)');
});
