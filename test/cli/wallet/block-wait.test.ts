import t from 'tap';
import { CliErrorCode } from '../../../cli/cli-error.js';
import { waitForBlock } from '../../../cli/wallet/block-wait.js';
import type { TransactionRecord } from '../../../wallet/daemon-client.js';

const pool: TransactionRecord = { in_pool: true, valid_block: '', block_height: 0 };
const mined: TransactionRecord = { in_pool: false, valid_block: 'b'.repeat(64), block_height: 7 };

t.test('polls until the transaction is in a block', async (t) => {
  const answers = [pool, pool, mined];
  let asked = 0;
  const daemon = { getTransaction: async () => answers[asked++]! };
  t.same(await waitForBlock(daemon, 'a'.repeat(64), { timeoutMs: 5000, intervalMs: 1 }), mined);
  t.equal(asked, 3);
});

t.test('gives up after the bounded time, naming the txid', async (t) => {
  const daemon = { getTransaction: async () => pool };
  await t.rejects(waitForBlock(daemon, 'c'.repeat(64), { timeoutMs: 30, intervalMs: 5 }), {
    code: CliErrorCode.NotMined,
    message: new RegExp(
      `transaction ${'c'.repeat(64)} is not in a block after 0 s; it was sent and may still be mined`,
    ),
  });
});
