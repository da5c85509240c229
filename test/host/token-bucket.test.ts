import t from 'tap';
import { TokenBucket } from '../../host/token-bucket.js';

t.test('a bucket starts full, gives up to its burst, refills at its rate and never above the burst', async (t) => {
  const bucket = new TokenBucket({ perSecond: 10, burst: 3 }, 0);
  t.ok(bucket.take(2, 0));
  t.ok(bucket.take(1, 0));
  t.notOk(bucket.take(1, 0), 'empty after the burst');
  t.notOk(bucket.take(1, 50), 'half a token after 50 ms');
  t.ok(bucket.take(1, 100), 'one token after 100 ms at 10 a second');
  t.notOk(bucket.take(4, 60_000), 'a long quiet spell refills only up to the burst');
  t.ok(bucket.take(3, 60_000));
});

t.test('a refused take costs nothing', async (t) => {
  const bucket = new TokenBucket({ perSecond: 1, burst: 5 }, 0);
  t.notOk(bucket.take(6, 0));
  t.ok(bucket.take(5, 0), 'the five tokens are still there');
});
