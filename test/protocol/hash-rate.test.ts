import t from 'tap';
import { hashRateText, networkHashRate } from '../../protocol/hash-rate.js';

t.test('a block takes 18 × its difficulty in hashes (nine miniblocks at it, the final at 9×)', async (t) => {
  t.equal(networkHashRate(1000n, 18), 1000);
  t.equal(networkHashRate(1000n, 9), 2000, 'faster blocks, more hashes per second');
  t.equal(networkHashRate(1000n, 0), 0, 'no block time, no estimate');
});

t.test('hash rates in the unit that fits', async (t) => {
  t.equal(hashRateText(0.0556), '0.06 H/s');
  t.equal(hashRateText(950), '950.0 H/s');
  t.equal(hashRateText(1500), '1.50 kH/s');
  t.equal(hashRateText(12_345_678), '12.3 MH/s');
  t.equal(hashRateText(4.2e18), '4200.0 PH/s');
});
