/**
 * New blocks travel on the `blocks` gossip topic: a mined block reaches a node two hops away by gossip; a forged one
 * gets its publisher banned and goes no further; an orphan by gossip makes the node sync from the forwarder. The
 * height a node shows for a peer follows the blocks and miniblocks that peer relays.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { decodeBlock, encodeBlock } from '../../../protocol/block.js';
import { toHex } from '../../../protocol/bytes.js';
import { premineKey } from '../../../protocol/premine.js';
import { encodeBlockBody } from '../../../plugins/p2p/wire/codec.js';
import { converged, mine, startNode, topOf, waitUntil, type TestNode } from '../../helpers/p2p.js';
import { rawPeer, type RawPeer } from '../../helpers/raw-peer.js';

const logged = (node: TestNode, pattern: RegExp): boolean => node.logLines.some((line) => pattern.test(line));

/** A raw peer that completed the handshake with `node` (it copies the node's chain identity). */
async function handshaken(node: TestNode, localAddress: string): Promise<RawPeer> {
  const peer = await rawPeer(node.p2p.port, localAddress);
  const { body } = await peer.next('hello');
  peer.send('hello', { ...body, nodeId: randomBytes(16), port: 0 });
  await waitUntil('the node accepts the raw peer', () => node.p2p.peers().some((p) => p.host === localAddress));
  return peer;
}

t.test('a block mined on one node reaches a node two hops away by gossip', async (t) => {
  const a = await startNode('a', {}, t);
  const b = await startNode('b', { addPeers: [a.address] }, t);
  const c = await startNode('c', { addPeers: [b.address], maxPeers: 1 }, t);
  await waitUntil('the line a–b–c is up', () => b.p2p.peers().length === 2 && c.p2p.peers().length === 1);
  await waitUntil(
    'the gossip mesh of the line is up',
    () => [a, b, c].map((node) => node.p2p.gossip.meshPeers('blocks')).join() === '1,2,1',
  );
  await mine(a);
  await waitUntil('all three have the block', () => converged(a, b, c));
  const id = topOf(a);
  t.ok(logged(b, new RegExp(`block ${id} came by gossip from .*: main`)), 'b took it from the topic');
  t.ok(logged(c, new RegExp(`block ${id} came by gossip from .*: main`)), 'c took it from the topic, through b');
});

t.test('a peer’s height follows the blocks and miniblocks it relays by gossip', async (t) => {
  const a = await startNode('a', {}, t);
  const b = await startNode('b', { addPeers: [a.address] }, t);
  await waitUntil('a and b are connected', () => b.p2p.peers().length === 1);
  await waitUntil('the gossip mesh is up', () =>
    ['blocks', 'miniblocks'].every(
      (topic) => b.p2p.gossip.meshPeers(topic) === 1 && a.p2p.gossip.meshPeers(topic) === 1,
    ),
  );
  await mine(a, 3);
  await waitUntil('b has the blocks', () => converged(a, b));
  const seenByB = b.p2p.peers()[0]!;
  t.equal(seenByB.height, 3, 'the height of the last block a relayed, not that of its handshake');

  seenByB.height = 0;
  const job = a.mining.template(premineKey(a.app.container.cradle.core, 'simulator'));
  t.equal((await a.mining.submit(job.id, job.blob)).mini, true);
  await waitUntil('b pooled a’s miniblock', () => b.mining.pooledCount() === 1);
  t.equal(seenByB.height, 3, 'a miniblock for height 4 shows a at height 3');
});

t.test('a forged block on the topic gets its publisher banned and goes no further', async (t) => {
  const victim = await startNode('victim', {}, t);
  const honest = await startNode('honest', { addPeers: [victim.address] }, t);
  await waitUntil('honest is connected', () => victim.p2p.peers().length === 1);
  await waitUntil('the mesh of victim and honest is up', () => victim.p2p.gossip.meshPeers('blocks') === 1);
  // A block whose state root no longer matches what its transactions make: well-formed, invalid.
  const elsewhere = await startNode('elsewhere', {}, t);
  await mine(elsewhere);
  const block = decodeBlock(elsewhere.chain.blockBytes(elsewhere.chain.top.id)!);
  block.stateRoot = new Uint8Array(32).fill(9);
  const forged = encodeBlock(block);
  const forger = await handshaken(victim, '127.0.0.41');
  await forger.publish('blocks', encodeBlockBody({ block: forged, txs: [] }));
  await waitUntil('the forger is cut off', forger.closed);
  t.ok(logged(victim, /banned 127\.0\.0\.41.*sent invalid block [0-9a-f]{64}: /), 'banned, with the reason');
  t.equal(victim.chain.top.height, 0n, 'the forged block changed nothing');
  t.notOk(logged(honest, /came by gossip/), 'the honest neighbour never saw it');
  t.equal(victim.p2p.peers().length, 1, 'the honest peer is still connected');
});

t.test('an orphan by gossip makes the node sync from the forwarder', async (t) => {
  const node = await startNode('node', {}, t);
  const elsewhere = await startNode('elsewhere', {}, t);
  await mine(elsewhere, 2);
  const ids = [1n, 2n].map((height) => elsewhere.chain.metaAtTopo(height)!.id);
  const bytesOf = new Map(ids.map((id) => [toHex(id), elsewhere.chain.blockBytes(id)!]));
  // The raw peer claims no more work than the node in its hello: only the orphan tells the node it is behind.
  const forwarder = await handshaken(node, '127.0.0.42');
  await forwarder.publish('blocks', encodeBlockBody({ block: bytesOf.get(toHex(ids[1]!))!, txs: [] }));
  const { body: chainRequest } = await forwarder.next('getChain');
  forwarder.send('chain', { request: chainRequest.request, start: 1, ids });
  // Serves each getBlocks request once.
  let served = 0;
  await waitUntil('the node has the branch', () => {
    const requests = forwarder.received.filter((m) => m.type === 'getBlocks');
    for (const request of requests.slice(served)) {
      if (request.type !== 'getBlocks') continue;
      const blocks = request.body.ids.map((id) => ({ block: bytesOf.get(toHex(id))!, txs: [] }));
      forwarder.send('blocks', { request: request.body.request, blocks });
    }
    served = requests.length;
    return node.chain.top.height === 2n;
  });
  t.ok(logged(node, /block [0-9a-f]{64} came by gossip from 127\.0\.0\.42:\d+: orphan/), 'the orphan came by gossip');
  t.ok(logged(node, /syncing from 127\.0\.0\.42/), 'a sync from the forwarder followed');
  t.equal(topOf(node), topOf(elsewhere));
  t.equal(node.p2p.peers().length, 1, 'the forwarder was not blamed');
});
