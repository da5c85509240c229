/** The compact node cache: what was set is found byte for byte; a full generation turns over and keeps what was read. */
import { createHash } from 'node:crypto';
import t from 'tap';
import { NodeCache } from '../../../../plugins/consensus/state/node-cache.js';

const hashOf = (i: number): Uint8Array => createHash('sha256').update(`node ${i}`).digest();
/** An inner node's encoding (65 bytes) or, for every third, a longer leaf-like one; distinct per i. */
const encodingOf = (i: number): Uint8Array => {
  const bytes = new Uint8Array(i % 3 === 0 ? 200 : 65);
  bytes.fill(i & 0xff);
  bytes.set(hashOf(i + 1_000_000), 1);
  return bytes;
};
const hex = (bytes: Uint8Array | undefined): string | undefined => bytes && Buffer.from(bytes).toString('hex');

t.test('entries set are found byte for byte, absent hashes are not, through the arena and table growing', async (t) => {
  const cache = new NodeCache(64 * 1024 * 1024);
  for (let i = 0; i < 20_000; i++) cache.set(hashOf(i), encodingOf(i));
  t.equal(cache.size, 20_000);
  let wrong = 0;
  for (let i = 0; i < 20_000; i++) if (hex(cache.get(hashOf(i))) !== hex(encodingOf(i))) wrong++;
  t.equal(wrong, 0, 'every entry reads back as set');
  t.equal(cache.get(hashOf(20_000)), undefined, 'a hash never set is a miss');
  cache.set(hashOf(7), encodingOf(8));
  t.equal(hex(cache.get(hashOf(7))), hex(encodingOf(7)), 'setting a held hash again changes nothing');
  t.equal(cache.size, 20_000);
});

t.test('a full generation turns over: entries read since survive, unread ones go, the budget holds', async (t) => {
  // ≈ 2 × 4 600 inner-node entries fit in 1 MiB.
  const cache = new NodeCache(1024 * 1024);
  const hot = Array.from({ length: 100 }, (_, i) => i);
  let lost = 0;
  for (let i = 0; i < 60_000; i++) {
    cache.set(hashOf(i), encodingOf(i));
    if (i >= 100 && i % 1000 === 0) for (const h of hot) if (hex(cache.get(hashOf(h))) !== hex(encodingOf(h))) lost++;
  }
  t.equal(lost, 0, 'entries read every 1 000 sets are held through many turns');
  t.equal(cache.get(hashOf(200)), undefined, 'an entry nothing read went');
  t.equal(hex(cache.get(hashOf(59_999))), hex(encodingOf(59_999)), 'the newest entry is held');
  t.ok(cache.size < 12_000, `at most what the budget holds (${cache.size} entries)`);
});

t.test('an entry larger than a generation is not cached, and the rest still is', async (t) => {
  const cache = new NodeCache(4096);
  cache.set(hashOf(1), new Uint8Array(5000));
  t.equal(cache.get(hashOf(1)), undefined);
  cache.set(hashOf(2), encodingOf(2));
  t.equal(hex(cache.get(hashOf(2))), hex(encodingOf(2)));
});
