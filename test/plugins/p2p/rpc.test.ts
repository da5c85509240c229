/** NODE.GetPeers: each side of a connection lists the other with its direction, height and ping latency. */
import t from 'tap';
import type { P2pNode } from '../../../plugins/p2p/p2p-node.js';
import { p2pMethods } from '../../../plugins/p2p/rpc.js';
import { rpcCall } from '../../helpers/app.js';
import { converged, mine, rpcUrl, startNode, waitUntil } from '../../helpers/p2p.js';

t.test('two connected nodes list each other', async (t) => {
  const a = await startNode('a', { transports: ['http'] }, t);
  await mine(a, 5);
  const b = await startNode('b', { transports: ['http'], addPeers: [a.address] }, t);
  await waitUntil('b has caught up', () => converged(a, b));
  await waitUntil('both have measured a round trip', () =>
    [a, b].every((node) => node.p2p.peers().every((peer) => peer.latencyMs !== undefined) && node.p2p.peers().length),
  );

  const fromB = await rpcCall(rpcUrl(b), 'NODE.GetPeers');
  t.equal(fromB.status, 'OK');
  t.equal(fromB.sync, null, 'no sync runs once caught up');
  t.equal(fromB.peers.length, 1);
  const [peerOfB] = fromB.peers;
  t.equal(peerOfB.address, a.address, "b dialled a's listening address");
  t.equal(peerOfB.direction, 'outgoing');
  t.equal(peerOfB.height, 5, "a's height as it reported it");
  t.match(peerOfB.node_id, /^[0-9a-f]{32}$/);
  t.ok(Number.isInteger(peerOfB.latency_ms) && peerOfB.latency_ms >= 0, `latency ${peerOfB.latency_ms} ms`);
  t.ok(peerOfB.latency_ms < 5000, 'a loopback round trip is quick');
  t.ok(Number.isInteger(peerOfB.connected_seconds) && peerOfB.connected_seconds >= 0);

  const fromA = await rpcCall(rpcUrl(a), 'NODE.GetPeers');
  t.equal(fromA.peers.length, 1);
  t.equal(fromA.peers[0].direction, 'incoming', 'a sees the connection b dialled as incoming');
  t.equal(fromA.peers[0].node_id === peerOfB.node_id, false, 'each lists the other node, not itself');
});

t.test('a node without peers answers an empty list', async (t) => {
  const lonely = await startNode('lonely', { transports: ['http'] }, t);
  t.same(await rpcCall(rpcUrl(lonely), 'NODE.GetPeers'), { peers: [], sync: null, status: 'OK' });
});

t.test('NODE.GetPeers takes no parameters', async (t) => {
  const node = await startNode('node', { transports: ['http'] }, t);
  await t.rejects(rpcCall(rpcUrl(node), 'NODE.GetPeers', { verbose: true }), { code: -32602 });
});

t.test('while a sync runs, its figures: percent, rate to one decimal, ETA in whole seconds', async (t) => {
  // The node mid-sync, as its sync progress reports it (a live sync on loopback is over before it can be asked).
  const syncing = {
    peers: () => [],
    syncStatus: () => ({ height: 1234, target: 5000, percent: 24.6, blocksPerSecond: 85.12, etaSeconds: 44.24 }),
  } as unknown as P2pNode;
  const [getPeers] = p2pMethods(syncing);
  t.equal(getPeers!.name, 'NODE.GetPeers');
  t.same(await getPeers!.handler(undefined, {} as never), {
    peers: [],
    sync: { height: 1234, target_height: 5000, percent: 24.6, blocks_per_second: 85.1, eta_seconds: 44 },
    status: 'OK',
  });
});
