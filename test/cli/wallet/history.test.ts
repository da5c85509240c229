import t from 'tap';
import { historyText, shorten, type HistoryResult } from '../../../cli/wallet/history.js';
import { describeOutcome } from '../../../protocol/contract-outcome-text.js';

const txid = '0123456789abcdef'.repeat(4);
const result: HistoryResult = {
  asset: '0'.repeat(64),
  entries: [
    {
      height: 3,
      status: 'mined',
      time: '2026-01-02T03:04:05.678+00:00',
      direction: 'in',
      coinbase: true,
      amount: 61_500n,
      fee: 0n,
      counterparty: '',
      txid: 'f'.repeat(64),
    },
    {
      height: 5,
      status: 'mined',
      time: '2026-01-02T03:05:00.000+00:00',
      direction: 'out',
      coinbase: false,
      amount: 150_000n,
      fee: 195n,
      counterparty: 'umbt1qyk9nk20na7mgu6whzp8tnj2jk725dtspwzctg833v937jzqvn6suqghty4ql',
      txid,
      sc_outcome: { status: 'failed', message: 'division by zero', line: 40, gascompute: 10 },
    },
    {
      height: -1,
      status: 'pending',
      time: '2026-01-02T03:06:00.000+00:00',
      direction: 'out',
      coinbase: false,
      amount: 1n,
      fee: 60n,
      counterparty: 'alice1',
      txid,
    },
  ],
};

t.test('a table: heights, time, direction, coins, fee, shortened ids, outcome', async (t) => {
  const lines = historyText(result).split('\n');
  t.match(lines[0], /^height +time +in\/out +amount \(UMB\) +fee \(UMB\) +counterparty +txid +contract$/);
  t.match(lines[1], /^3 +2026-01-02 03:04:05 +in +0\.61500 +coinbase$/);
  t.match(
    lines[2],
    /^5 +2026-01-02 03:05:00 +out +1\.50000 +0\.00195 +umbt1qyk…qghty4ql +01234567…89abcdef +failed: division by zero \(line 40\)$/,
  );
  t.match(lines[3], /^pending .* out +0\.00001 +0\.00060 +alice1 +01234567…89abcdef$/);
  t.equal(lines[0]!.indexOf('amount'), lines[2]!.indexOf('1.50000'), 'columns line up');
  t.equal(historyText({ asset: result.asset, entries: [] }), 'no transfers yet\n');
});

t.test('a dropped transfer: marked in the table, and the command that sends it again below', async (t) => {
  const dropped = 'ab'.repeat(32);
  const text = historyText({
    asset: result.asset,
    entries: [
      {
        ...result.entries[2]!,
        status: 'dropped',
        txid: dropped,
        send_again: "umbra wallet send alice1 0.00001 --payload 'C:S=order 7'",
      },
    ],
  });
  t.match(text, /^dropped .* out +0\.00001 +0\.00060 +alice1 +abababab…abababab$/m);
  t.match(
    text,
    `\ndropped ${dropped}: the daemon holds it in neither its pool nor its chain, so it spent nothing; to send it again:\n  umbra wallet send alice1 0.00001 --payload 'C:S=order 7'\n`,
  );
});

t.test('ids and outcomes for people', async (t) => {
  t.equal(shorten(txid), '01234567…89abcdef');
  t.equal(shorten('alice1'), 'alice1');
  t.equal(describeOutcome({ status: 'committed', gascompute: 1 }), 'committed');
  t.equal(describeOutcome({ status: 'returned', code: 7, gascompute: 1 }), 'returned 7');
  t.equal(describeOutcome({ status: 'failed', message: 'out of gas', gascompute: 1 }), 'failed: out of gas');
});

t.test('a contract install or call: the contract and the entry point are the counterparty', async (t) => {
  const scid = '12345678'.repeat(8);
  const text = historyText({
    asset: result.asset,
    entries: [
      { ...result.entries[1]!, counterparty: scid, contract: { scid, entrypoint: 'Register' } },
      { ...result.entries[1]!, counterparty: scid, contract: { scid } },
    ],
  });
  const [, call, install] = text.split('\n');
  t.match(call, / 12345678…12345678 Register +01234567…89abcdef /);
  t.match(install, / 12345678…12345678 \(install\) +01234567…89abcdef /);
});
