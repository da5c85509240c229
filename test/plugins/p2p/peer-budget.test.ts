/** A peer's budget: messages and bytes per class refill with time; what is over budget is refused and reported. */
import t from 'tap';
import { PeerBudget, type BudgetLimits } from '../../../plugins/p2p/peer-budget.js';
import { MESSAGES } from '../../../plugins/p2p/wire/messages.js';

const LIMITS: BudgetLimits = {
  control: { messages: { perSecond: 10, burst: 5 }, bytes: { perSecond: 1000, burst: 1000 } },
  data: { messages: { perSecond: 1, burst: 2 }, bytes: { perSecond: 100, burst: 300 } },
};

function budget(): { budget: PeerBudget; reports: string[]; advance(ms: number): void } {
  let now = 1_000_000;
  const reports: string[] = [];
  return {
    budget: new PeerBudget(
      (reason) => reports.push(reason),
      LIMITS,
      () => now,
    ),
    reports,
    advance: (ms) => void (now += ms),
  };
}

t.test('control messages: the burst passes, the next is refused and reported, time refills', async (t) => {
  const { budget: b, reports, advance } = budget();
  for (let i = 0; i < 5; i++) t.ok(b.admit(MESSAGES.ping.kind, 10), `message ${i + 1} of the burst`);
  t.notOk(b.admit(MESSAGES.ping.kind, 10), 'the sixth is over budget');
  t.same(reports, ['sends control messages faster than allowed (messages per second)']);
  advance(100);
  t.ok(b.admit(MESSAGES.newTxs.kind, 10), 'a tenth of a second refills one message');
  t.notOk(b.admit(MESSAGES.newTxs.kind, 10));
  advance(60_000);
  for (let i = 0; i < 5; i++) t.ok(b.admit(MESSAGES.getBlocks.kind, 10));
  t.notOk(b.admit(MESSAGES.getBlocks.kind, 10), 'a long quiet spell refills no more than the burst');
});

t.test('bytes count as well as messages, and the two classes have separate buckets', async (t) => {
  const { budget: b, reports, advance } = budget();
  t.ok(b.admit(MESSAGES.blocks.kind, 250));
  t.notOk(b.admit(MESSAGES.txs.kind, 100), 'data bytes are over budget while data messages are not');
  t.match(reports, [/data messages faster than allowed \(bytes per second\)/]);
  t.ok(b.admit(MESSAGES.ping.kind, 900), 'control has its own budget');
  advance(1000);
  t.ok(b.admit(MESSAGES.txs.kind, 100), 'a second refills 100 data bytes');
});
