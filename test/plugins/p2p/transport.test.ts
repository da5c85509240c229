/**
 * The transport under the protocol: what crosses the wire is encrypted, a pinned peer id is enforced, the node key
 * (so the peer id) survives a restart, one remote IP gets no more than its share of connections, and a node with nothing
 * to connect to does not start libp2p until it dials.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { encodeMessage } from '../../../plugins/p2p/wire/codec.js';
import { converged, mine, startNode, waitUntil, type TestNode } from '../../helpers/p2p.js';
import { rawPeer } from '../../helpers/raw-peer.js';

/** A TCP relay to `target` that keeps every byte it passes, both ways. */
async function sniffer(t: Test, target: TestNode): Promise<{ address: string; bytes: () => Buffer }> {
  const seen: Buffer[] = [];
  const sockets: Socket[] = [];
  const server = createServer((inbound) => {
    const outbound = connect(target.p2p.port, '127.0.0.1');
    sockets.push(inbound, outbound);
    for (const [from, to] of [
      [inbound, outbound],
      [outbound, inbound],
    ] as const) {
      from.on('data', (chunk: Buffer) => {
        seen.push(chunk);
        to.write(chunk);
      });
      from.on('close', () => to.destroy());
      from.on('error', () => to.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, bytes: () => Buffer.concat(seen) };
}

/** Two nodes talking through a sniffer while blocks flow; the bytes it saw, and the ids and bytes of the blocks. */
async function overheard(t: Test): Promise<{ bytes: Buffer; ids: Buffer[]; blocks: Buffer[] }> {
  const a = await startNode('a', {}, t);
  const relay = await sniffer(t, a);
  const b = await startNode('b', { addPeers: [relay.address] }, t);
  await waitUntil('b is connected', () => a.p2p.peers().length === 1 && b.p2p.peers().length === 1);
  await mine(a, 3);
  await waitUntil('b has the blocks', () => converged(a, b));
  const ids = [1n, 2n, 3n].map((height) => Buffer.from(a.chain.metaAtTopo(height)!.id));
  const blocks = ids.map((id) => Buffer.from(a.chain.blockBytes(id)!));
  return { bytes: relay.bytes(), ids, blocks };
}

t.test('an eavesdropper on the wire sees neither the network name nor any block id', async (t) => {
  const { bytes, ids, blocks } = await overheard(t);
  t.ok(bytes.length > 1000, `the blocks crossed the relay (${bytes.length} bytes)`);
  t.equal(bytes.indexOf('simulator'), -1, 'no network name (it is in every hello)');
  for (const id of ids) t.equal(bytes.indexOf(id), -1, `no block id ${id.toString('hex').slice(0, 16)}…`);
  for (const block of blocks) t.equal(bytes.indexOf(block), -1, 'no block');
});

t.test(
  'the same exchange without encryption shows the network and the blocks: the sniffer does see what crosses',
  async (t) => {
    process.env.UMBRA_P2P_PLAINTEXT = '1';
    t.teardown(() => delete process.env.UMBRA_P2P_PLAINTEXT);
    const { bytes, blocks } = await overheard(t);
    t.not(bytes.indexOf('simulator'), -1, 'the network name, in the hello');
    // Each block crosses whole, by gossip or fetched after an announcement (whichever way, its bytes are there).
    for (const block of blocks) t.not(bytes.indexOf(block), -1, 'a block, whole');
  },
);

t.test('a plain TCP client speaking our frames gets no message back and no peer slot', async (t) => {
  const node = await startNode('node', {}, t);
  const socket = connect(node.p2p.port, '127.0.0.1');
  const seen: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => seen.push(chunk));
  socket.on('error', () => {}); // the node resets it
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(encodeMessage('getPeers', {}));
  await new Promise((resolve) => socket.once('close', resolve));
  const bytes = Buffer.concat(seen);
  t.equal(bytes.indexOf('simulator'), -1, 'nothing of the chain');
  t.ok(
    bytes.length === 0 || bytes.subarray(1).toString('latin1').startsWith('/multistream/1.0.0\n'),
    `at most libp2p's protocol negotiation (${JSON.stringify(bytes.toString('latin1'))})`,
  );
  t.equal(node.p2p.peers().length, 0);
});

t.test('a pinned peer id must match the key the remote proves', async (t) => {
  const a = await startNode('a', {}, t);
  const b = await startNode('b', {}, t);
  const c = await startNode('c', {}, t);
  await t.rejects(c.p2p.connect(`${a.address}/p2p/${b.p2p.peerId}`), /cannot connect to 127\.0\.0\.1:\d+\/p2p\//);
  t.equal(c.p2p.peers().length, 0, 'no connection to a under b’s key');
  await c.p2p.connect(`${a.address}/p2p/${a.p2p.peerId}`);
  await waitUntil('c is connected to a', () => c.p2p.peers().length === 1);
  t.equal(c.p2p.peers()[0]!.listenAddress, a.address, 'the peer is known by host:port');
});

t.test('the peer id survives a restart on a data dir; a memory store gets a fresh one each run', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'umbra-p2p-key-'));
  const first = await startNode('first', { store: 'rocksdb', dataDir });
  const id = first.p2p.peerId;
  await first.app.stop();
  const again = await startNode('again', { store: 'rocksdb', dataDir }, t);
  t.equal(again.p2p.peerId, id);
  t.match(id, /^12D3KooW/, 'an Ed25519 key');
  const [m1, m2] = [await startNode('m1', {}, t), await startNode('m2', {}, t)];
  t.not(m1.p2p.peerId, m2.p2p.peerId);
});

t.test('a node that neither listens nor has a peer to dial starts libp2p only when told to connect', async (t) => {
  const a = await startNode('a', {}, t);
  const idle = await startNode('idle', { p2pBind: '' }, t);
  t.equal(idle.p2p.peerId, '', 'no node key in use: libp2p is not started');
  t.same(idle.p2p.counts(), { incoming: 0, outgoing: 0, white: 0, grey: 0 });
  t.ok(idle.logLines.some((line) => line.includes('P2P idle: no --p2p-bind and no peer to dial')));
  await idle.p2p.connect(a.address);
  await waitUntil('idle is connected to a', () => idle.p2p.peers().length === 1 && a.p2p.peers().length === 1);
  t.match(idle.p2p.peerId, /^12D3KooW/, 'started on demand');
});

t.test('connections from one IP stop at p2pMaxPerIp; other addresses still get in', async (t) => {
  const node = await startNode('node', { p2pMaxPerIp: 2 }, t);
  const first = await rawPeer(node.p2p.port, '127.0.0.81');
  const second = await rawPeer(node.p2p.port, '127.0.0.81');
  await Promise.all([first.next('hello'), second.next('hello')]);
  const third = await rawPeer(node.p2p.port, '127.0.0.81');
  await waitUntil('the third from that address is refused', third.closed);
  t.equal(third.received.length, 0);
  const other = await rawPeer(node.p2p.port, '127.0.0.82');
  t.ok(await other.next('hello'), 'another address is served');
  await Promise.all([first.close(), second.close(), other.close()]);
});
