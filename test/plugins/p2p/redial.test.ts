/**
 * Forming and healing quickly: a configured peer that is not listening yet, or that went away, is dialled again
 * within about a second and then on a short capped backoff; a node that lost all its peers keeps its known list; a
 * peer the node was connected to is redialled after its failures dropped it from the peer book.
 */
import { createServer, type AddressInfo } from 'node:net';
import t from 'tap';
import { delayRelay } from '../../../bench/lib/delay-relay.js';
import { KnownGoodPeers } from '../../../plugins/p2p/known-good.js';
import { RedialSchedule } from '../../../plugins/p2p/redial-schedule.js';
import { startNode, waitUntil } from '../../helpers/p2p.js';

/** A loopback port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

t.test('known addresses back off from about half a second, doubling, jittered, capped; others wait long', async (t) => {
  const schedule = new RedialSchedule({ firstMs: 500, capMs: 5_000, unknownMs: 30_000 }, () => 0.5);
  t.same(
    [1, 2, 3, 4, 5, 6].map(() => schedule.failed('10.0.0.1:1', true, 0)),
    [500, 1000, 2000, 4000, 5000, 5000],
  );
  t.notOk(schedule.due('10.0.0.1:1', 4999));
  t.ok(schedule.due('10.0.0.1:1', 5000));
  schedule.succeeded('10.0.0.1:1');
  t.equal(schedule.failed('10.0.0.1:1', true, 0), 500, 'a success starts the backoff over');
  t.equal(schedule.failed('10.0.0.2:1', false, 0), 30_000, 'an address only heard of waits long');
  const jittered = new RedialSchedule(undefined, () => 0.999);
  t.ok(jittered.failed('10.0.0.3:1', true, 0) < 1000, 'the first retry comes within a second, jitter included');
});

t.test('a configured peer that starts late is connected within one capped backoff of listening', async (t) => {
  const port = await freePort();
  const joiner = await startNode('joiner', { p2pBind: '', addPeers: [`127.0.0.1:${port}`] }, t);
  await waitUntil('the first dial failed', () => joiner.logLines.some((line) => /cannot connect to/.test(line)));
  // Several failed retries: the backoff grows, but stays short.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const late = await startNode('late', { p2pBind: `127.0.0.1:${port}` }, t);
  const listening = Date.now();
  // Within the capped backoff (2 s ± 50 %) and a handshake; the old schedule waited ≈ 35 s, past this bound.
  await waitUntil('the joiner connected', () => joiner.p2p.peers().length === 1, 15_000);
  t.equal(joiner.p2p.peers().length, 1, 'the joiner is connected to the late peer');
  t.comment(`connected ${Date.now() - listening} ms after the peer began to listen`);
  await waitUntil('the late peer counts the joiner', () => late.p2p.peers().length === 1);
});

t.test('a node that lost its only peer keeps it in its book and reconnects once it is back', async (t) => {
  const port = await freePort();
  const first = await startNode('first', { p2pBind: `127.0.0.1:${port}` });
  const b = await startNode('b', { p2pBind: '', addPeers: [first.address] }, t);
  await waitUntil('b is connected', () => b.p2p.peers().length === 1);
  await first.app.stop();
  await waitUntil('b lost it', () => b.p2p.peers().length === 0);
  await new Promise((resolve) => setTimeout(resolve, 4000));
  t.equal(b.p2p.counts().white, 1, 'failed redials while alone leave the address in the white list');
  const again = await startNode('again', { p2pBind: `127.0.0.1:${port}` }, t);
  const back = Date.now();
  await waitUntil('b reconnected', () => b.p2p.peers().length === 1, 15_000);
  t.equal(b.p2p.peers().length, 1, 'b is connected to the restarted peer');
  t.comment(`reconnected ${Date.now() - back} ms after it came back`);
  await waitUntil('the restarted peer counts b', () => again.p2p.peers().length === 1);
});

t.test('known-good addresses are listed most recently seen first and let go after a while', async (t) => {
  const known = new KnownGoodPeers(1000);
  known.seen('10.0.0.1:1', 0);
  known.seen('10.0.0.2:1', 100);
  known.seen('10.0.0.1:1', 200);
  t.same(known.current(500), ['10.0.0.1:1', '10.0.0.2:1']);
  t.same(known.current(1150), ['10.0.0.1:1'], 'the one unseen for longer than the keep time is gone');
  t.notOk(known.has('10.0.0.2:1'));

  const bounded = new KnownGoodPeers(1000, 2);
  for (const [i, address] of ['10.0.0.1:1', '10.0.0.2:1', '10.0.0.3:1'].entries()) bounded.seen(address, i);
  t.same(bounded.current(3), ['10.0.0.3:1', '10.0.0.2:1'], 'beyond the bound, the least recently seen goes');
});

t.test('a link cut long enough to drop its address from the peer book is redialled once it returns', async (t) => {
  const far = await startNode('far', {}, t);
  const other = await startNode('other', {}, t);
  const near = await startNode('near', { p2pBind: '' }, t);
  const relay = await delayRelay('127.0.0.1', { host: '127.0.0.1', port: far.p2p.port }, '127.0.0.1', 30);
  t.teardown(() => relay.close());
  // With another peer up, each failed dial of the cut link counts against its address in the book.
  await near.p2p.connect(other.address);
  await near.p2p.connect(relay.address);
  await waitUntil('near has both peers', () => near.p2p.peers().length === 2);
  relay.cut();
  await waitUntil(
    'the cut link dropped out of the peer book',
    () => near.p2p.counts().white + near.p2p.counts().grey === 1,
    20_000,
  );
  relay.restore();
  const back = Date.now();
  // At most 3 s of backoff, then the handshake; without the known-good redial the link is never dialled again.
  await waitUntil('near is connected through the link again', () => near.p2p.peers().length === 2, 15_000);
  t.equal(near.p2p.peers().length, 2, 'near has both peers again');
  t.comment(`reconnected ${Date.now() - back} ms after the link returned`);
});
