/**
 * Miniblocks solved on one node join the pools of the others, so that a block's nine ordinary miniblocks can come
 * from miners on different nodes (over the `miniblocks` gossip topic); an invalid miniblock gets its sender banned.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { decodeMiniblock, encodeMiniblock } from '../../../protocol/miniblock.js';
import { premineKey } from '../../../protocol/premine.js';
import { converged, mine, startNode, waitUntil } from '../../helpers/p2p.js';
import { rawPeer } from '../../helpers/raw-peer.js';

t.test('ordinary miniblocks travel; a block completes on another node with them', async (t) => {
  const a = await startNode('a', {}, t);
  const b = await startNode('b', { addPeers: [a.address] }, t);
  const c = await startNode('c', { addPeers: [b.address], maxPeers: 1 }, t);
  await waitUntil('the line a–b–c is up', () => b.p2p.peers().length === 2 && c.p2p.peers().length === 1);
  // Until the gossip mesh forms (at gossipsub's next heartbeat), a miniblock may not be forwarded.
  await waitUntil(
    'the gossip line is up',
    () => [a, b, c].map((node) => node.p2p.gossip.meshPeers('miniblocks')).join() === '1,2,1',
  );
  const key = premineKey(a.app.container.cradle.core, 'simulator');
  for (let i = 0; i < 3; i++) {
    const job = a.mining.template(key);
    t.equal((await a.mining.submit(job.id, job.blob)).mini, true);
  }
  await waitUntil(
    'b and c pooled a’s three miniblocks',
    () => b.mining.pooledCount() === 3 && c.mining.pooledCount() === 3,
  );
  const height = c.chain.top.height;
  await mine(c);
  const block = c.chain.block(c.chain.top.id)!;
  t.equal(c.chain.top.height, height + 1n);
  t.equal(block.miniblocks.length, 10, 'the block has its ten miniblocks');
  await waitUntil('every node has the block', () => converged(a, b, c));
  t.equal(a.mining.pooledCount(), 0, 'the pools moved on to the next height');
});

t.test('a miniblock naming an unregistered miner gets its sender banned', async (t) => {
  const node = await startNode('victim', {}, t);
  const peer = await rawPeer(node.p2p.port, '127.0.0.21');
  const { body } = await peer.next('hello');
  peer.send('hello', { ...body, nodeId: randomBytes(16), port: 0 });
  await waitUntil('the raw peer is in', () => node.p2p.peers().some((p) => p.host === '127.0.0.21'));
  const job = node.mining.template(premineKey(node.app.container.cradle.core, 'simulator'));
  const forged = encodeMiniblock({ ...decodeMiniblock(job.blob), keyHash: new Uint8Array(16).fill(7) });
  await peer.publish('miniblocks', forged);
  await waitUntil('the sender is cut off', peer.closed);
  t.ok(
    node.logLines.some((line) => line.includes('banned 127.0.0.21') && /not registered/.test(line)),
    'banned, with the reason',
  );
  t.equal(node.mining.pooledCount(), 0, 'nothing pooled');
});
