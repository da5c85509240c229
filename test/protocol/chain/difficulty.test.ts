import t from 'tap';
import { blockReward, CHAIN_PARAMS } from '../../../protocol/chain-params.js';
import { adjustmentFactor, nextDifficulty } from '../../../protocol/chain/difficulty.js';

t.test('the reference difficulty table reproduces with integers only', async (t) => {
  const table: [bigint, bigint][] = [
    [1_000n, 1_125_300n],
    [9_000n, 1_064_400n],
    [18_000n, 1_000_000n],
    [27_000n, 939_400n],
    [36_000n, 882_400n],
    [90_000n, 882_400n],
  ];
  const mainnet = CHAIN_PARAMS.mainnet;
  for (const [solve, expected] of table) {
    t.equal(
      nextDifficulty(mainnet, {
        height: 100n,
        tipDifficulty: 1_000_000n,
        tipTimestamp: 1_000_000n + solve,
        parentTimestamp: 1_000_000n,
      }),
      expected,
      `solve ${solve} ms`,
    );
  }
});

t.test('bounds, bootstrap, minimum and the fixed simulator difficulty', async (t) => {
  t.equal(adjustmentFactor(-5n), adjustmentFactor(0n), 'negative solve times count as 0');
  t.ok(adjustmentFactor(0n) > 11_300n && adjustmentFactor(0n) < 11_340n, 'e^(1/8)');
  t.equal(
    nextDifficulty(CHAIN_PARAMS.mainnet, { height: 2n, tipDifficulty: 5n, tipTimestamp: 0n, parentTimestamp: 0n }),
    10_000_000n,
    'bootstrap below height 3',
  );
  t.equal(
    nextDifficulty(CHAIN_PARAMS.testnet, {
      height: 50n,
      tipDifficulty: 50n,
      tipTimestamp: 100_000n,
      parentTimestamp: 0n,
    }),
    50n,
    'clamped to the minimum',
  );
  t.equal(
    nextDifficulty(CHAIN_PARAMS.simulator, { height: 50n, tipDifficulty: 7n, tipTimestamp: 1n, parentTimestamp: 0n }),
    1n,
    'simulator is fixed at 1',
  );
});

t.test('block reward halves every 7 000 000 blocks', async (t) => {
  t.equal(blockReward(0n), 61_500n);
  t.equal(blockReward(6_999_999n), 61_500n);
  t.equal(blockReward(7_000_000n), 30_750n);
  t.equal(blockReward(14_000_000n), 15_375n);
});
