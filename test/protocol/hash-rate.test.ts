import t from 'tap';
import { hashRateEstimateText, hashRateText } from '../../protocol/hash-rate.js';

t.test('hash rates in the unit that fits', async (t) => {
  t.equal(hashRateText(0.0556), '0.06 H/s');
  t.equal(hashRateText(950), '950.0 H/s');
  t.equal(hashRateText(1500), '1.50 kH/s');
  t.equal(hashRateText(12_345_678), '12.3 MH/s');
  t.equal(hashRateText(4.2e18), '4200.0 PH/s');
});

t.test('an estimate says its window, and why it is missing', async (t) => {
  t.equal(hashRateEstimateText(612.3), "612.3 H/s (accepted miniblocks' difficulty over the hour up to the top block)");
  t.equal(hashRateEstimateText(0), 'not known yet: it needs two blocks within the hour up to the top block');
});
