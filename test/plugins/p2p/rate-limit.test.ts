/** Token buckets per peer: a burst, then the sustained rate. */
import t from 'tap';
import { RateLimit } from '../../../plugins/p2p/rate-limit.js';

t.test('a burst is allowed, then tokens come back at the rate; each key has its own bucket', async (t) => {
  const limit = new RateLimit<object>(2, 3);
  const [a, b] = [{}, {}];
  t.same(
    [0, 0, 0, 0].map(() => limit.take(a, 0)),
    [true, true, true, false],
    'a burst of three',
  );
  t.ok(limit.take(b, 0), 'another key is not affected');
  t.notOk(limit.take(a, 499), 'under one token after 499 ms at 2/s');
  t.ok(limit.take(a, 500), 'one token after 500 ms');
  t.same(
    [0, 0, 0, 0].map(() => limit.take(a, 60_000)),
    [true, true, true, false],
    'a long pause refills only the burst',
  );
  t.notOk(new RateLimit<object>(0, 0).take(a, 0), 'a zero limit takes nothing');
});
