/** Peer exchange, white and grey lists (persisted), bans surviving a restart, GetInfo's peer figures, seed peers and the warning of a node without peers. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { encodeFrame } from '../../../plugins/p2p/wire/frame.js';
import { postRpc } from '../../helpers/app.js';
import { mine, rpcUrl, startNode, waitUntil, converged } from '../../helpers/p2p.js';
import { rawPeer } from '../../helpers/raw-peer.js';

const getInfo = async (url: string) =>
  (await postRpc(url, { jsonrpc: '2.0', id: 1, method: 'NODE.GetInfo' })).json.result;

t.test('GetInfo reports connections and peer lists as they are', async (t) => {
  const a = await startNode('a', { transports: ['http'] }, t);
  const url = rpcUrl(a);
  t.match(await getInfo(url), {
    incoming_connections_count: 0,
    outgoing_connections_count: 0,
    white_peerlist_size: 0,
    grey_peerlist_size: 0,
  });
  const b = await startNode('b', { addPeers: [a.address] }, t);
  const c = await startNode('c', { addPeers: [a.address] }, t);
  // b and c learn of each other through a and connect: a full mesh of three.
  await waitUntil('a full mesh', () => [a, b, c].every((node) => node.p2p.peers().length === 2));
  t.match(await getInfo(url), {
    incoming_connections_count: 2,
    outgoing_connections_count: 0,
    white_peerlist_size: 2,
    grey_peerlist_size: 0,
  });
  const counts = [b, c].map((node) => node.p2p.counts());
  t.equal(counts[0]!.incoming + counts[1]!.incoming, 1, 'one of b and c dialled the other');
  t.equal(counts[0]!.outgoing + counts[1]!.outgoing, 3);

  // d takes one connection only: what it hears of stays grey.
  const d = await startNode('d', { addPeers: [a.address], maxPeers: 1, transports: ['http'] }, t);
  await waitUntil('d heard of b and c', () => d.p2p.counts().grey === 2);
  t.match(await getInfo(rpcUrl(d)), {
    incoming_connections_count: 0,
    outgoing_connections_count: 1,
    white_peerlist_size: 1,
    grey_peerlist_size: 2,
  });

  t.equal((await getInfo(url)).target_height, 0, 'everyone at genesis');
  const ahead = await rawPeer(a.p2p.port, '127.0.0.71');
  const { body } = await ahead.next('hello');
  ahead.send('hello', { ...body, nodeId: randomBytes(16), port: 0, height: 50 });
  await waitUntil('a took the handshake', () => a.p2p.peers().some((peer) => peer.height === 50));
  t.equal((await getInfo(url)).target_height, 50, 'target_height is the highest height a peer reports');
  await ahead.close();

  await b.app.stop();
  await waitUntil('a saw b go', () => a.p2p.peers().length === 2 && a.p2p.counts().incoming === 2);
  t.equal((await getInfo(url)).incoming_connections_count, 2, 'c and d remain');
});

t.test('peer lists and bans are kept across a restart', async (t) => {
  const a = await startNode('a', {}, t);
  const dataDir = mkdtempSync(join(tmpdir(), 'umbra-p2p-peers-'));
  let e = await startNode('e', { store: 'rocksdb', dataDir, addPeers: [a.address] });
  await waitUntil('e is connected', () => e.p2p.peers().length === 1);
  const attacker = await rawPeer(e.p2p.port, '127.0.0.41');
  attacker.write(encodeFrame(250, Buffer.alloc(1)));
  await waitUntil('the attacker is cut off', attacker.closed);
  await mine(a, 2);
  await waitUntil("e has a's blocks", () => converged(a, e));
  await e.app.stop();

  e = await startNode('e', { store: 'rocksdb', dataDir }, t);
  t.equal(e.chain.top.height, 2n, 'the chain persisted');
  await waitUntil('e reconnects to a from its white list, without --add-peer', () => e.p2p.peers().length === 1);
  t.equal(e.p2p.counts().white, 1);
  const again = await rawPeer(e.p2p.port, '127.0.0.41');
  await waitUntil('the banned address is still refused', again.closed);
  t.equal(again.received.length, 0);
});

t.test('a node that dials itself notices, forgets the address and does not hear of it again', async (t) => {
  const a = await startNode('a', {}, t);
  const b = await startNode('b', { addPeers: [a.address] }, t);
  await waitUntil('b is connected', () => b.p2p.peers().length === 1);
  await t.rejects(a.p2p.connect(a.address), /Can not dial self/, 'the encrypted handshake proves our own key');
  await waitUntil('a refused itself', () =>
    a.logLines.some((line) => line.includes(`refused peer ${a.address}: connected to itself`)),
  );
  t.equal(a.p2p.peers().length, 1, 'only b');
  // Another peer tells a of its own address (and of one more): a takes only the other one.
  const teller = await rawPeer(a.p2p.port, '127.0.0.61');
  const { body } = await teller.next('hello');
  teller.send('hello', { ...body, nodeId: randomBytes(16), port: 0 });
  teller.send('peers', { addresses: [a.address, '127.0.0.99:1'] });
  await waitUntil('a heard of the other address', () => a.p2p.counts().grey === 1);
  t.notOk(a.logLines.some((line) => /banned/.test(line)));
});

t.test('a node alone warns how to give it peers; seed peers are dialled from an empty peer book', async (t) => {
  const alone = await startNode('alone', { noPeerWarningMs: 200 }, t);
  await waitUntil('the warning is logged', () => alone.logLines.some((line) => /WARN.*no P2P peer for/.test(line)));
  t.match(
    alone.logLines.find((line) => /no P2P peer for/.test(line)),
    /no P2P peer for \d+ s: this node cannot sync nor relay blocks\. Give it peers with --add-peer host:port \(config key addPeers\) or seedPeers in the config file$/,
  );

  const seeded = await startNode('seeded', { seedPeers: [alone.address], noPeerWarningMs: 200 }, t);
  await waitUntil('the seed peer is connected', () => seeded.p2p.peers().length === 1);
  await mine(alone, 2);
  await waitUntil('the seeded node follows', () => converged(alone, seeded));
  t.notOk(
    seeded.logLines.some((line) => /no P2P peer for/.test(line)),
    'no warning while connected',
  );
});
