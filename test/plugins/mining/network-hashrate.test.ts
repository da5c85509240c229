/** GetInfo's hashrate_1hr, _1d, _7d: the expected hashes of the window's blocks over the time they span. */
import t from 'tap';
import { NetworkHashrate } from '../../../plugins/mining/network-hashrate.js';
import { mineBlock, openTestChain } from '../../helpers/chain.js';

t.test('the work of the blocks in each window over the time they span', async (t) => {
  const test = await openTestChain();
  const rates = new NetworkHashrate(test.chain);
  t.same(rates.get(), { hour: 0, day: 0, week: 0 }, 'no mined block yet');
  await mineBlock(test);
  t.same(rates.get(), { hour: 0, day: 0, week: 0 }, 'one block spans no time');
  // Simulator difficulty 1: a block is 18 expected hashes; one every 18 s is 1 H/s.
  for (let i = 0; i < 5; i++) await mineBlock(test);
  t.same(rates.get(), { hour: 1, day: 1, week: 1 });
  // Two hours later: the hour holds one block (no span), the day and week all seven.
  test.clock.now += 2n * 3_600_000n;
  await mineBlock(test);
  const spanS = (5 * 18_000 + 2 * 3_600_000 + 18_000) / 1000;
  const dayRate = Math.round(((6 * 18) / spanS) * 100) / 100;
  t.same(rates.get(), { hour: 0, day: dayRate, week: dayRate });
  // Two days later the day holds the last two blocks: 18 hashes over two days.
  test.clock.now += 2n * 86_400_000n - 18_000n;
  await mineBlock(test);
  const { day, week } = rates.get();
  t.equal(day, Math.round((18 / (2 * 86_400)) * 100) / 100);
  t.equal(week, Math.round(((7 * 18) / (spanS + 2 * 86_400)) * 100) / 100);
});
