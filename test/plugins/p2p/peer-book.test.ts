/** The peer book's lists and their moves, and ban scores, as stored. */
import t from 'tap';
import { createLogger } from '../../../host/logger.js';
import { MemoryStore } from '../../../host/storage/memory-store.js';
import { Bans, BAN_THRESHOLD, MAX_SCORED_HOSTS } from '../../../plugins/p2p/bans.js';
import { PeerBook } from '../../../plugins/p2p/peer-book.js';

const logger = createLogger('error');

t.test('heard of → grey; handshake → white; failures drop white to grey, then out', async (t) => {
  const store = new MemoryStore();
  const book = new PeerBook(store, logger);
  book.heardOf('10.0.0.1:1');
  book.heardOf('10.0.0.2:1');
  book.connected('10.0.0.2:1');
  t.same([book.whiteSize, book.greySize], [1, 1]);
  t.same(book.candidates(), ['10.0.0.2:1', '10.0.0.1:1'], 'white first');
  t.same(book.share(10), ['10.0.0.2:1'], 'only white addresses are shared');
  book.heardOf('10.0.0.2:1');
  t.same([book.whiteSize, book.greySize], [1, 1], 'hearing of a white address changes nothing');

  book.failed('10.0.0.2:1');
  t.ok(book.isGrey('10.0.0.2:1'), 'a white address that fails turns grey');
  book.failed('10.0.0.2:1');
  t.ok(book.isGrey('10.0.0.2:1'));
  book.failed('10.0.0.2:1');
  t.notOk(book.isGrey('10.0.0.2:1') || book.isWhite('10.0.0.2:1'), 'three failures and it is forgotten');
  book.forget('10.0.0.1:1');
  t.same([book.whiteSize, book.greySize], [0, 0]);

  book.connected('10.0.0.3:1');
  book.heardOf('10.0.0.4:1');
  await book.flush();
  const reopened = new PeerBook(store, logger);
  await reopened.load();
  t.ok(reopened.isWhite('10.0.0.3:1') && reopened.isGrey('10.0.0.4:1'), 'both lists are stored');
  t.equal(reopened.whiteSize + reopened.greySize, 2, 'and nothing that was removed');
});

t.test('ban scores add up to a ban that is stored and expires', async (t) => {
  const store = new MemoryStore();
  const bans = new Bans(store, logger, 50);
  t.notOk(bans.penalise('10.0.0.9', BAN_THRESHOLD - 1));
  t.notOk(bans.isBanned('10.0.0.9'));
  t.ok(bans.penalise('10.0.0.9', 1), 'the threshold bans');
  t.ok(bans.isBanned('10.0.0.9'));
  t.notOk(bans.isBanned('10.0.0.8'), 'only that address');
  await bans.flush();
  const reopened = new Bans(store, logger, 50);
  await reopened.load();
  t.ok(reopened.isBanned('10.0.0.9'), 'the ban is stored');
  await new Promise((resolve) => setTimeout(resolve, 60));
  t.notOk(reopened.isBanned('10.0.0.9'), 'and lifted after its time');
});

t.test('scores are kept for a bounded number of addresses, the least recently raised forgotten first', async (t) => {
  const bans = new Bans(new MemoryStore(), logger, 60_000);
  const near = BAN_THRESHOLD - 1;
  for (let i = 0; i <= MAX_SCORED_HOSTS; i++) bans.penalise(`10.1.${i >> 8}.${i & 255}`, near);
  t.notOk(bans.penalise('10.1.0.0', 1), 'the first address was forgotten: one more point does not ban it');
  t.ok(bans.penalise(`10.1.${MAX_SCORED_HOSTS >> 8}.${MAX_SCORED_HOSTS & 255}`, 1), 'the last one is still near a ban');
});
