/**
 * A sliced job's share of the event loop: its first slice is the shortest, a slice after a turn that held the loop
 * lasts as long as that turn did, and never longer than the cap. The slices read a clock the test moves, so the
 * figures do not depend on how busy the machine is.
 */
import t from 'tap';
import { FairSlices } from '../../host/fair-slices.js';

/** A clock that moves only when told. */
function testClock(): { now: () => number; advance(ms: number): void } {
  let ms = 0;
  return { now: () => ms, advance: (by) => void (ms += by) };
}

t.test('a slice lasts at least the shortest time', async (t) => {
  const clock = testClock();
  const slices = new FairSlices(1000, 2000, clock.now);
  t.notOk(slices.due(), 'a fresh slice has time left');
  clock.advance(999);
  t.notOk(slices.due());
  clock.advance(1);
  t.ok(slices.due(), 'used up after the shortest time');
  t.ok(new FairSlices(0, 50, clock.now).due(), 'a slice of 0 ms is used up at once');
});

t.test('after a busy turn the next slice is as long as that turn', async (t) => {
  const clock = testClock();
  const slices = new FairSlices(0, 1000, clock.now);
  // Queued before the job asks for its turn: it runs first and holds the loop for 30 ms.
  setImmediate(() => clock.advance(30));
  await slices.yield();
  t.notOk(slices.due(), 'the job gets as long as the loop was held');
  clock.advance(29);
  t.notOk(slices.due());
  clock.advance(1);
  t.ok(slices.due());
});

t.test('a slice never exceeds the cap however long the loop was held', async (t) => {
  const clock = testClock();
  const slices = new FairSlices(0, 20, clock.now);
  setImmediate(() => clock.advance(60));
  await slices.yield();
  clock.advance(19);
  t.notOk(slices.due());
  clock.advance(1);
  t.ok(slices.due(), 'the slice ended at the cap');
});
