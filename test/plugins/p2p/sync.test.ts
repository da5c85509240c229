/** A fresh node catches up from genesis; partitioned groups converge on the heavier chain when they reconnect. */
import t from 'tap';
import { toHex } from '../../../host/protocol/bytes.js';
import { converged, mine, startNode, topOf, waitUntil } from '../../helpers/p2p.js';

t.test('a fresh node syncs 200 blocks and ends with the same state root', async (t) => {
  const a = await startNode('a', {}, t);
  let started = Date.now();
  await mine(a, 200);
  t.comment(`mined 200 blocks in ${Date.now() - started} ms`);
  const fresh = await startNode('fresh', { addPeers: [a.address] }, t);
  started = Date.now();
  await waitUntil('the fresh node has caught up', () => converged(a, fresh), 60_000);
  t.comment(`synced 200 blocks in ${Date.now() - started} ms`);
  t.equal(fresh.chain.top.height, 200n);
  t.equal(toHex(fresh.chain.top.stateRoot), toHex(a.chain.top.stateRoot), 'same state root');
  t.equal(fresh.chain.top.cumulativeWork, a.chain.top.cumulativeWork);
  t.ok(
    fresh.logLines.some((line) => /syncing from 127\.0\.0\.1:\d+: this node at height 0, the peer at 200/.test(line)),
    'a line when sync starts',
  );
  t.ok(
    fresh.logLines.some((line) => /sync from 127\.0\.0\.1:\d+ done: 200 blocks in [\d.]+ s, height 0 → 200/.test(line)),
    'a line when it ends',
  );
});

t.test('partitioned groups mine, reconnect and converge on the heaviest chain', async (t) => {
  const a = await startNode('a', {}, t);
  const b = await startNode('b', {}, t);
  const c = await startNode('c', { addPeers: [b.address] }, t);
  await mine(a, 2);
  await waitUntil('b and c are connected', () => c.p2p.peers().length === 1);
  await mine(b, 3);
  await waitUntil("c has b's blocks", () => converged(b, c));
  await mine(c, 1);
  await waitUntil('b and c agree', () => converged(b, c));
  t.equal(b.chain.top.height, 4n, 'group {b, c} is at height 4');
  t.equal(a.chain.top.height, 2n, 'group {a} is at height 2');
  const lighter = topOf(a);

  await a.p2p.connect(b.address);
  await waitUntil('all three agree', () => converged(a, b, c));
  t.equal(a.chain.top.height, 4n, 'a reorganised onto the heavier chain');
  t.not(topOf(a), lighter);
  t.equal(toHex(a.chain.top.stateRoot), toHex(b.chain.top.stateRoot));
  t.ok(a.chain.meta(Buffer.from(lighter, 'hex')), 'a keeps its old branch as a side branch');

  // The lighter side now mines the next block: everyone follows it.
  await mine(a, 1);
  await waitUntil('all three follow a', () => converged(a, b, c) && b.chain.top.height === 5n);
  t.pass('blocks flow both ways after the partition healed');
});
