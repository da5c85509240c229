import t from 'tap';
import { sumDeposits } from '../../protocol/contract-deposits.js';

t.test('deposits are summed per asset: two payloads of one asset deposit both burns', async (t) => {
  const coin = '\0'.repeat(32);
  const token = 'T'.repeat(32);
  const deposits = sumDeposits([
    [coin, 150n],
    [token, 7n],
    [coin, 2n ** 63n],
  ]);
  t.same(
    [...deposits],
    [
      [coin, 150n + 2n ** 63n],
      [token, 7n],
    ],
  );
});
