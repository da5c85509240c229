/** The web wallet's idle lock: it locks after its idle time, activity puts that off, and it tells each change. */
import t from 'tap';
import { IdleLock } from '../../../plugins/web-wallet/idle-lock.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('locks when idle, not while touched', async (t) => {
  let changes = 0;
  // 0.02 minutes: 1.2 s idle.
  const lock = new IdleLock(0.02, () => changes++);
  t.teardown(() => lock.stop());
  lock.start();
  for (let i = 0; i < 4; i++) {
    await pause(500);
    lock.touch();
  }
  t.equal(lock.isLocked, false, 'activity kept it open');
  await pause(2300);
  t.equal(lock.isLocked, true, 'idle, it locked');
  t.equal(changes, 1);
  lock.lock();
  t.equal(changes, 1, 'locking a locked page changes nothing');
  lock.unlock();
  t.equal(lock.isLocked, false);
  t.equal(changes, 2);
});
