/**
 * A sliced job's share of the event loop: its first slice is the shortest, a slice after a turn that held the loop
 * lasts as long as that turn did, and never longer than the cap.
 */
import t from 'tap';
import { FairSlices } from '../../host/fair-slices.js';

/** Holds the thread for `ms`, as an admission batch does. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

t.test('a slice lasts at least the shortest time', async (t) => {
  const slices = new FairSlices(1000, 2000);
  t.notOk(slices.due(), 'a fresh slice has time left');
  t.ok(new FairSlices(0, 50).due(), 'a slice of 0 ms is used up at once');
});

t.test('after a busy turn the next slice is as long as that turn', async (t) => {
  const slices = new FairSlices(0, 1000);
  // Queued before the job asks for its turn: it runs first and holds the loop.
  setImmediate(() => busyFor(30));
  await slices.yield();
  t.notOk(slices.due(), 'the job gets as long as the loop was held');
  busyFor(31);
  t.ok(slices.due());
});

t.test('a slice never exceeds the cap however long the loop was held', async (t) => {
  const slices = new FairSlices(0, 20);
  setImmediate(() => busyFor(60));
  await slices.yield();
  busyFor(21);
  t.ok(slices.due(), 'the slice ended at the cap');
});
