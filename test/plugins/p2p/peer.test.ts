/**
 * One connection: keep-alive pings and the latency they measure, the idle and handshake timeouts, request timeouts
 * and mismatched answers.
 */
import { generateKeyPair } from '@libp2p/crypto/keys';
import t, { type Test } from 'tap';
import { protocolOf } from '../../../plugins/p2p/handshake.js';
import { Peer, type PeerHandlers, type PeerTimings } from '../../../plugins/p2p/peer.js';
import { StreamLink } from '../../../plugins/p2p/stream-link.js';
import { createTransport } from '../../../plugins/p2p/transport.js';
import { rawPeer, type RawPeer } from '../../helpers/raw-peer.js';
import { waitUntil } from '../../helpers/p2p.js';

const FAST: PeerTimings = { handshakeMs: 60_000, pingIntervalMs: 40, idleTimeoutMs: 300, requestTimeoutMs: 150 };

/** A Peer on the listening side of a loopback libp2p connection, and the raw client at the other end. */
async function pair(t: Test, timings: PeerTimings): Promise<{ peer: Peer; client: RawPeer; events: string[] }> {
  const events: string[] = [];
  const handlers: PeerHandlers = {
    message: (_p, message) => events.push(`message ${message.type}`),
    violation: (_p, reason) => events.push(`violation ${reason}`),
    closed: (_p, reason) => events.push(`closed ${reason}`),
  };
  let peer!: Peer;
  const server = await createTransport({
    privateKey: await generateKeyPair('Ed25519'),
    listen: { host: '127.0.0.1', port: 0 },
    maxPeers: 4,
    maxPerIp: 4,
    isBanned: () => false,
    dialTimeoutMs: 5000,
  });
  await server.handle(protocolOf('simulator'), (stream, connection) => {
    peer = new Peer(new StreamLink(stream, connection), 'incoming', handlers, timings);
  });
  t.teardown(async () => {
    peer.close('test over', false);
    await server.stop();
  });
  const port = Number(
    server
      .getMultiaddrs()[0]!
      .getComponents()
      .find((c) => c.name === 'tcp')!.value,
  );
  const client = await rawPeer(port, '127.0.0.1');
  await waitUntil('the server side exists', () => peer !== undefined);
  return { peer, client, events };
}

t.test('an idle connection is pinged, and dropped when it stays silent', async (t) => {
  const { client, events } = await pair(t, FAST);
  await client.next('ping');
  await waitUntil('the silent client is dropped', () => events.some((e) => e.startsWith('closed')), 2000);
  t.same(events, ['closed silent for 300 ms']);
  t.match((await client.next('goodbye')).body.reason, 'silent for 300 ms');
});

t.test('a client answering pings stays connected', async (t) => {
  const { peer, client, events } = await pair(t, FAST);
  const timer = setInterval(() => {
    for (const m of client.received.splice(0)) if (m.type === 'ping') client.send('pong', { nonce: m.body.nonce });
  }, 10);
  t.teardown(() => clearInterval(timer));
  await new Promise((resolve) => setTimeout(resolve, 900));
  t.notOk(peer.closed, 'still open after three idle timeouts');
  t.same(events, [], 'pings and pongs are not passed on');
});

t.test("a ping's round trip is the peer's latency; a pong to no ping of ours is ignored", async (t) => {
  const { peer, client } = await pair(t, { ...FAST, pingIntervalMs: 300, idleTimeoutMs: 3000 });
  const ping = await client.next('ping');
  client.send('pong', { nonce: (ping.body.nonce + 1) % 2 ** 32 });
  await new Promise((resolve) => setTimeout(resolve, 15));
  t.equal(peer.latencyMs, undefined, 'a pong with another nonce measures nothing');
  await new Promise((resolve) => setTimeout(resolve, 25));
  client.send('pong', { nonce: ping.body.nonce });
  await waitUntil('the round trip is measured', () => peer.latencyMs !== undefined, 2000);
  t.ok(peer.latencyMs! >= 25, `the time from ping to pong (${peer.latencyMs} ms)`);
});

t.test('pings are answered', async (t) => {
  const { client } = await pair(t, FAST);
  client.send('ping', { nonce: 77 });
  t.equal((await client.next('pong')).body.nonce, 77);
});

t.test('no handshake in time closes the connection', async (t) => {
  const { events } = await pair(t, { ...FAST, handshakeMs: 100 });
  await waitUntil('closed', () => events.length > 0, 2000);
  t.same(events, ['closed no handshake within 100 ms']);
});

t.test('requests time out, and an answer of the wrong kind is a violation', async (t) => {
  const { peer, client, events } = await pair(t, FAST);
  await t.rejects(peer.request('getChain', { locator: [] }), /did not answer getChain within 150 ms/);
  const pending = peer.request('getBlocks', { ids: [] });
  const request = await client.next('getBlocks');
  client.send('chain', { request: request.body.request, start: 1, ids: [] });
  await t.rejects(pending, /is gone: protocol violation: answered a request with chain instead of blocks/);
  t.same(events.slice(0, 1), ['violation answered a request with chain instead of blocks']);
});
