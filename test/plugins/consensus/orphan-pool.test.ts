/** The orphan pool: bodies kept with their block, expiry, a share per source, a count and a byte budget. */
import t from 'tap';
import {
  MAX_ORPHAN_BYTES,
  MAX_ORPHANS,
  MAX_ORPHANS_PER_SOURCE,
  ORPHAN_TTL_MS,
  OrphanPool,
} from '../../../plugins/consensus/orphan-pool.js';

const id = (n: number): Uint8Array => {
  const bytes = new Uint8Array(32);
  new DataView(bytes.buffer).setUint32(0, n);
  return bytes;
};
const PARENT = id(999_999);
/** The blocks `pool` held for `parent`, taken out. */
const children = (pool: OrphanPool, parent: Uint8Array): Uint8Array[] =>
  pool.takeChildrenOf(parent).map((orphan) => orphan.bytes);

t.test('children come out oldest first, once; a block kept twice is kept once', async (t) => {
  const pool = new OrphanPool(() => 0);
  pool.keep(id(1), PARENT, Uint8Array.of(1), 'peer a');
  pool.keep(id(2), id(7), Uint8Array.of(2), 'peer a');
  pool.keep(id(3), PARENT, Uint8Array.of(3), 'peer b');
  pool.keep(id(1), PARENT, Uint8Array.of(1), 'peer b');
  t.equal(pool.size, 3);
  t.same(children(pool, PARENT), [Uint8Array.of(1), Uint8Array.of(3)]);
  t.same(children(pool, PARENT), []);
  t.equal(pool.size, 1);
});

t.test('orphans expire', async (t) => {
  let now = 0;
  const pool = new OrphanPool(() => now);
  pool.keep(id(1), PARENT, Uint8Array.of(1), 'peer a');
  now = ORPHAN_TTL_MS / 2;
  pool.keep(id(2), PARENT, Uint8Array.of(2), 'peer a');
  now = ORPHAN_TTL_MS + 1;
  t.same(children(pool, PARENT), [Uint8Array.of(2)], 'the first expired, the second not yet');
});

t.test('one source holds a bounded share: its oldest gives way to its newest', async (t) => {
  const pool = new OrphanPool(() => 0);
  for (let n = 0; n < MAX_ORPHANS_PER_SOURCE + 5; n++) pool.keep(id(n), id(10_000 + n), Uint8Array.of(n), 'flooder');
  pool.keep(id(500), PARENT, Uint8Array.of(9), 'honest');
  t.equal(pool.size, MAX_ORPHANS_PER_SOURCE + 1);
  t.same(children(pool, id(10_000)), [], "the flooder's oldest is gone");
  t.same(children(pool, id(10_000 + MAX_ORPHANS_PER_SOURCE + 4)), [Uint8Array.of(MAX_ORPHANS_PER_SOURCE + 4)]);
  t.same(children(pool, PARENT), [Uint8Array.of(9)], "another source's orphan is untouched");
});

t.test('a full pool gives way from its oldest, never refusing the newest', async (t) => {
  const pool = new OrphanPool(() => 0);
  for (let n = 0; n < MAX_ORPHANS; n++) pool.keep(id(n), id(10_000 + n), Uint8Array.of(1), `source ${n}`);
  pool.keep(id(MAX_ORPHANS), PARENT, Uint8Array.of(2), 'late');
  t.equal(pool.size, MAX_ORPHANS);
  t.same(children(pool, id(10_000)), [], 'the oldest gave way');
  t.same(children(pool, PARENT), [Uint8Array.of(2)], 'the newest is kept');
});

t.test('the pool holds at most MAX_ORPHAN_BYTES: the oldest give way to a large newcomer', async (t) => {
  const pool = new OrphanPool(() => 0);
  const quarter = new Uint8Array(MAX_ORPHAN_BYTES / 4);
  for (let n = 0; n < 4; n++) pool.keep(id(n), id(10_000 + n), quarter, `source ${n}`);
  t.equal(pool.size, 4, 'exactly full');
  pool.keep(id(4), PARENT, new Uint8Array(MAX_ORPHAN_BYTES / 2), 'late');
  t.equal(pool.size, 3, 'the two oldest gave way');
  t.same(children(pool, id(10_000)), []);
  t.same(children(pool, id(10_001)), []);
  t.equal(children(pool, id(10_002)).length, 1);
  t.equal(children(pool, PARENT).length, 1, 'the newcomer is kept');
  pool.keep(id(5), PARENT, new Uint8Array(MAX_ORPHAN_BYTES - MAX_ORPHAN_BYTES / 4), 'late');
  t.equal(pool.size, 2, 'what was taken out no longer counts against the budget');
});

t.test('the bodies that came with a block come out with it and count against the byte budget', async (t) => {
  const pool = new OrphanPool(() => 0);
  const body = new Uint8Array(MAX_ORPHAN_BYTES / 2);
  pool.keep(id(1), PARENT, Uint8Array.of(1), 'peer a', new Map([['aa', body]]));
  pool.keep(id(2), id(7), Uint8Array.of(2), 'peer b', new Map([['bb', body]]));
  t.equal(pool.size, 1, 'the first block and its body gave way to the second');
  const [orphan] = pool.takeChildrenOf(id(7));
  t.same(orphan!.bytes, Uint8Array.of(2));
  t.equal(orphan!.txs.get('bb'), body);
});
