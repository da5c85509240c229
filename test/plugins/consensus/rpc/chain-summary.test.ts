/** GetInfo's top figures: the average block time counts only blocks actually mined, never the genesis timestamp. */
import t from 'tap';
import { ChainSummary } from '../../../../plugins/consensus/rpc/chain-summary.js';
import { mineBlock, openTestChain } from '../../../helpers/chain.js';

t.test('averageblocktime50 is 0 until two blocks are mined, then the mean of their intervals', async (t) => {
  const test = await openTestChain();
  t.equal(test.chain.metaAtTopo(0n)!.timestamp, 0n, 'the genesis block has the timestamp 0 on the simulator');
  t.equal(new ChainSummary().of(test.chain).averageBlockTimeS, 0, 'genesis only');
  await mineBlock(test);
  t.equal(new ChainSummary().of(test.chain).averageBlockTimeS, 0, 'one mined block: no interval yet');
  // mineBlock moves the clock 18 s; the extra seconds make unequal intervals: 18 + 2, 18 + 10, 18 + 0.
  for (const extraMs of [2_000n, 10_000n, 0n]) {
    test.clock.now += extraMs;
    await mineBlock(test);
  }
  t.equal(new ChainSummary().of(test.chain).averageBlockTimeS, (20 + 28 + 18) / 3, 'the mean of the three intervals');
});

t.test('averageblocktime50 averages the last 50 intervals only', async (t) => {
  const test = await openTestChain();
  for (let i = 0; i < 3; i++) {
    test.clock.now += 1_000_000n; // slow early blocks, which must drop out of the window
    await mineBlock(test);
  }
  for (let i = 0; i < 50; i++) await mineBlock(test);
  t.equal(test.chain.top.height, 53n);
  t.equal(new ChainSummary().of(test.chain).averageBlockTimeS, 18, 'the 50 intervals of 18 s');
});
