/**
 * A fresh node catches up from genesis, past a peer that stalls its requests and one that lies; partitioned groups
 * converge on the heavier chain when they reconnect.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { toHex } from '../../../protocol/bytes.js';
import { converged, mine, startNode, topOf, waitUntil, type TestNode } from '../../helpers/p2p.js';
import { peerClaimingChainOf } from '../../helpers/raw-peer.js';

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
  t.equal(
    fresh.logLines.filter((line) => /syncing from/.test(line)).length,
    1,
    'one sync round took the whole chain: the stall did not end it',
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

/**
 * A raw peer at `localAddress` that claims `honest`'s chain with a little more work, so that `fresh` syncs from it,
 * and lists that chain's ids; returns once `fresh` asks it for the first blocks.
 */
async function fakeLeader(fresh: TestNode, honest: TestNode, localAddress: string) {
  const peer = await peerClaimingChainOf(fresh.p2p.port, localAddress, honest, 1n);
  const getChain = await peer.next('getChain');
  const count = Number(honest.chain.top.height);
  const ids = Array.from({ length: count }, (_, i) => honest.chain.metaAtTopo(BigInt(i + 1))!.id);
  peer.send('chain', { request: getChain.body.request, start: 1, ids });
  return { peer, getBlocks: await peer.next('getBlocks') };
}

t.test('a fresh node syncs from an honest peer while another peer takes requests and never answers them', async (t) => {
  const honest = await startNode('honest', {}, t);
  await mine(honest, 300);
  const fresh = await startNode('fresh', { p2pRequestTimeoutMs: 500 }, t);
  // The staller leads the sync (it claims the most work), but never sends a block: its requests time out.
  const { peer: staller } = await fakeLeader(fresh, honest, '127.0.0.41');
  await fresh.p2p.connect(honest.address);
  await waitUntil('the fresh node has caught up', () => converged(honest, fresh), 60_000);
  t.equal(fresh.chain.top.height, 300n);
  t.ok(
    fresh.logLines.some((line) =>
      /sync: 127\.0\.0\.41:\d+ did not answer getBlocks within 500 ms; its blocks go to other peers/.test(line),
    ),
    'the stalled request is logged and handed on',
  );
  t.equal(
    fresh.logLines.filter((line) => /syncing from/.test(line)).length,
    1,
    'one sync round took the whole chain: the stall did not end it',
  );
  t.equal(
    staller.received.filter((m) => m.type === 'getBlocks').length,
    1,
    'the staller was asked once, then left out',
  );
});

t.test('a peer that answers a sync request with a wrong block is banned, and the sync goes on', async (t) => {
  const honest = await startNode('honest', {}, t);
  await mine(honest, 100);
  const fresh = await startNode('fresh', {}, t);
  const { peer: liar, getBlocks } = await fakeLeader(fresh, honest, '127.0.0.42');
  await fresh.p2p.connect(honest.address);
  liar.send('blocks', { request: getBlocks.body.request, blocks: [{ block: randomBytes(200), txs: [] }] });
  await waitUntil('the liar is cut off', liar.closed);
  await waitUntil('the fresh node has caught up', () => converged(honest, fresh), 60_000);
  t.ok(
    fresh.logLines.some((line) => /banned 127\.0\.0\.42 .*sent block [0-9a-f]{64} when asked for/.test(line)),
    'the liar is banned for the block that is not the one asked for',
  );
  t.equal(fresh.chain.top.height, 100n);
});
