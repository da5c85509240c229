/**
 * Transactions travel through the `txPool` service: admitted ones reach every pool, refused ones stop; mined anywhere.
 * Those submitted to a node go along a Dandelion++ stem first: to one peer, hidden, until fluffed or their embargo ends.
 */
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { makeRegistration } from '../../../protocol/registration.js';
import { toHex } from '../../../protocol/bytes.js';
import { encodeTransaction } from '../../../protocol/transaction.js';
import type { TxPoolService } from '../../../host/services/tx-pool.js';
import { DEFAULT_DANDELION, type DandelionSettings } from '../../../plugins/p2p/dandelion.js';
import { DEFAULT_SETTINGS } from '../../../plugins/p2p/p2p-node.js';
import { converged, mine, startNode, waitUntil, type TestNode } from '../../helpers/p2p.js';
import type { FakeTxPool } from './fixtures/fake-tx-pool.js';

const plugins = [
  'dvm',
  'consensus',
  'mining',
  'p2p',
  fileURLToPath(new URL('./fixtures/fake-tx-pool.js', import.meta.url)),
];
const poolOf = (node: TestNode): FakeTxPool => node.app.container.resolve<FakeTxPool>('txPool');
/** The relay settings of the nodes started next (each node copies them when it starts). */
const relaySettings = (changes: Partial<DandelionSettings>): void => {
  DEFAULT_SETTINGS.dandelion = { ...DEFAULT_DANDELION, ...changes };
};
const logged = (node: TestNode, pattern: RegExp): boolean => node.logLines.some((line) => pattern.test(line));

/** Waits until the line a–b–c is also a line of the `txs` gossip mesh (gossipsub's heartbeat builds it). */
const gossipLineUp = (...line: TestNode[]): Promise<void> =>
  waitUntil(
    'the gossip mesh of the line is up',
    () => line.map((node) => node.p2p.gossip.meshPeers('txs')).join() === '1,2,1',
  );

t.test(
  'a transaction admitted on one node reaches the pools two hops away; a refused one goes no further',
  async (t) => {
    const a = await startNode('a', { plugins }, t);
    const b = await startNode('b', { plugins, addPeers: [a.address] }, t);
    const c = await startNode('c', { plugins, addPeers: [b.address], maxPeers: 1 }, t);
    await waitUntil('the line a–b–c is up', () => b.p2p.peers().length === 2 && c.p2p.peers().length === 1);
    await gossipLineUp(a, b, c);
    poolOf(a).add(Buffer.from('a transfer'));
    await waitUntil('c has the transaction', () => poolOf(c).txs.size === 1);
    t.equal(poolOf(b).txs.size, 1);

    // b's pool refuses what a's pool took: b neither keeps it nor passes it on, and a is not punished for it.
    poolOf(a).keep(Buffer.from([0, 1, 2]));
    await waitUntil('b was offered the transaction', () =>
      b.logLines.some((line) => /gossiped transaction refused by the pool: refused: starts with 0/.test(line)),
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    t.equal(poolOf(c).txs.size, 1, 'c never saw it');
    t.equal(b.p2p.peers().length, 2, 'nobody was dropped');
  },
);

t.test(
  'a submitted transaction goes to one peer first (another if that one leaves), to all when its embargo runs out',
  async (t) => {
    // The embargo leaves time for the re-routing below even on a busy machine.
    relaySettings({ fluffProbability: 0, embargoMinMs: 8000, embargoMeanMs: 100 });
    const a = await startNode('a', { plugins }, t);
    // The leaves drop every stem transaction: a's stem stalls at its first hop.
    relaySettings({ stemTxsPerSecond: 0, stemTxBurst: 0 });
    const leaves = await Promise.all(
      ['b', 'c', 'd'].map((name) => startNode(name, { plugins, addPeers: [a.address], maxPeers: 1 }, t)),
    );
    await waitUntil('the star is up', () => a.p2p.peers().length === 3);
    const txid = toHex(poolOf(a).add(Buffer.from('a private transfer'), { local: true }));
    const dropped = (leaf: TestNode): boolean => logged(leaf, /stem transaction from .* dropped: over its rate limit/);
    await waitUntil('a leaf was sent the stem', () => leaves.some(dropped));
    t.same(
      leaves.map((leaf) => poolOf(leaf).txs.size),
      [0, 0, 0],
      'no leaf was told of it: the only copy went along the stem',
    );
    t.equal(leaves.filter(dropped).length, 1, 'exactly one peer was sent the stem');

    // The successor goes away: the stem is sent again, to one other peer.
    // It stops rather than only dropping the connection, so that it cannot come back as the successor.
    const first = leaves.find(dropped)!;
    await first.app.stop();
    const others = leaves.filter((leaf) => leaf !== first);
    await waitUntil('another leaf was sent the stem', () => leaves.filter(dropped).length === 2);
    t.same(
      others.map((leaf) => poolOf(leaf).txs.size),
      [0, 0],
      'still no leaf was told of it',
    );

    await waitUntil('every remaining leaf has it', () => others.every((leaf) => poolOf(leaf).txs.has(txid)));
    t.ok(logged(a, new RegExp(`fluffing transaction ${txid}: its embargo ran out`)), 'a fluffed it itself');
    t.equal(leaves.filter(dropped).length, 2, 'no third peer was sent the stem');
  },
);

t.test('a stem travels the line and is fluffed at its end; the fluff comes back along it', async (t) => {
  relaySettings({ fluffProbability: 0, embargoMinMs: 60_000 });
  const a = await startNode('a', { plugins }, t);
  const b = await startNode('b', { plugins, addPeers: [a.address] }, t);
  const c = await startNode('c', { plugins, addPeers: [b.address], maxPeers: 1 }, t);
  await waitUntil('the line a–b–c is up', () => b.p2p.peers().length === 2 && c.p2p.peers().length === 1);
  await gossipLineUp(a, b, c);
  const txid = toHex(poolOf(a).add(Buffer.from('a private transfer'), { local: true }));
  await waitUntil('c has the transaction', () => poolOf(c).txs.has(txid));
  t.ok(poolOf(b).txs.has(txid));
  t.ok(logged(a, new RegExp(`stem transaction ${txid} sent to ${b.address}`)), 'a passed it to b on the stem');
  t.ok(logged(b, new RegExp(`stem transaction ${txid} sent to 127.0.0.1:`)), 'b passed it on to c');
  t.ok(logged(c, new RegExp(`fluffing transaction ${txid}: no stem successor`)), 'c, at the end, fluffed it');
  await waitUntil('b and a saw the fluff', () =>
    [a, b].every((node) => logged(node, new RegExp(`transaction ${txid} seen fluffed by`))),
  );
  t.notOk(
    [a, b, c].some((node) => logged(node, /its embargo ran out/)),
    'no embargo had to run out',
  );
});

t.test(
  'a stem that loops back to a node holding the transaction is fluffed there at once, not after an embargo',
  async (t) => {
    relaySettings({ fluffProbability: 0, embargoMinMs: 60_000 });
    const a = await startNode('a', { plugins }, t);
    const b = await startNode('b', { plugins, addPeers: [a.address] }, t);
    const c = await startNode('c', { plugins, addPeers: [a.address, b.address] }, t);
    await waitUntil('the triangle is up', () => [a, b, c].every((node) => node.p2p.peers().length === 2));
    await waitUntil('the gossip mesh of the triangle is up', () =>
      [a, b, c].every((node) => node.p2p.gossip.meshPeers('txs') === 2),
    );
    // a's stem goes to one of b and c, who passes it to the other, who can only pass it back to a.
    const txid = toHex(poolOf(a).add(Buffer.from('a private transfer'), { local: true }));
    await waitUntil('a saw its stem come back', () =>
      logged(
        a,
        new RegExp(`fluffing transaction ${txid}: its stem came back from .* and no peer off the stem remains`),
      ),
    );
    await waitUntil('b and c saw the fluff', () =>
      [b, c].every((node) => logged(node, new RegExp(`transaction ${txid} seen fluffed by`))),
    );
    t.notOk(
      [a, b, c].some((node) => logged(node, /already in the pool|embargo ran out/)),
      'no stem stopped at a refusal, no embargo had to run out',
    );
  },
);

t.test('a stem transaction stays out of templates until fluffed; one mined meanwhile needs no fluff', async (t) => {
  relaySettings({ fluffProbability: 0, embargoMinMs: 1500, embargoMeanMs: 100 });
  const a = await startNode('a', { plugins }, t);
  // b drops every stem transaction: a's stems stall at their first hop.
  relaySettings({ stemTxsPerSecond: 0, stemTxBurst: 0 });
  await startNode('b', { plugins, addPeers: [a.address] }, t);
  await waitUntil('a and b are connected', () => a.p2p.peers().length === 1);
  const inTemplates = (txid: string): boolean =>
    poolOf(a)
      .pending()
      .some((id) => toHex(id) === txid);

  const first = toHex(poolOf(a).add(Buffer.from('a private transfer'), { local: true }));
  await waitUntil('a sent it on the stem', () => logged(a, new RegExp(`stem transaction ${first} sent to`)));
  t.notOk(inTemplates(first), 'held back from a’s templates while in its stem');
  await waitUntil('its embargo ran out', () => logged(a, new RegExp(`fluffing transaction ${first}: its embargo`)));
  t.ok(inTemplates(first), 'fluffed: a may mine it');

  const second = poolOf(a).add(Buffer.from('another private transfer'), { local: true });
  await waitUntil('a sent it on the stem', () => logged(a, new RegExp(`stem transaction ${toHex(second)} sent to`)));
  poolOf(a).drop(second);
  await waitUntil('its stem ended', () =>
    logged(a, new RegExp(`stem of transaction ${toHex(second)} ended: it left the pool`)),
  );
  await new Promise((resolve) => setTimeout(resolve, 2500));
  t.notOk(logged(a, new RegExp(`fluffing transaction ${toHex(second)}`)), 'no embargo ran out for it');
});

t.test('a transaction submitted to a node without peers waits for one, and takes the stem to it', async (t) => {
  relaySettings({ fluffProbability: 0, embargoMinMs: 60_000 });
  const a = await startNode('a', { plugins }, t);
  const txid = toHex(poolOf(a).add(Buffer.from('a private transfer'), { local: true }));
  await new Promise((resolve) => setTimeout(resolve, 600));
  const b = await startNode('b', { plugins, addPeers: [a.address] }, t);
  await waitUntil('b has the transaction', () => poolOf(b).txs.has(txid));
  t.ok(logged(a, new RegExp(`stem transaction ${txid} sent to`)), 'a sent it on the stem once b was up');
  t.ok(logged(b, new RegExp(`fluffing transaction ${txid}: no stem successor`)), 'b, with no other peer, fluffed it');
  t.notOk(logged(a, /fluffing|embargo/), 'a never announced it first');
});

t.test('a stem transaction the pool refuses goes no further, and costs its sender nothing', async (t) => {
  relaySettings({ fluffProbability: 0 });
  const a = await startNode('a', { plugins }, t);
  const b = await startNode('b', { plugins, addPeers: [a.address] }, t);
  const c = await startNode('c', { plugins, addPeers: [b.address], maxPeers: 1 }, t);
  await waitUntil(
    'the line a–b–c is up, a included',
    () => a.p2p.peers().length === 1 && b.p2p.peers().length === 2 && c.p2p.peers().length === 1,
  );
  a.p2p.peers()[0]!.send('stemTx', { tx: Buffer.from([0, 1, 2]) });
  await waitUntil('b refused it', () =>
    logged(b, /stem transaction from .* refused by the pool: refused: starts with 0/),
  );
  await new Promise((resolve) => setTimeout(resolve, 600));
  t.equal(poolOf(b).txs.size + poolOf(c).txs.size, 0, 'nobody keeps it');
  t.notOk(logged(b, /stem transaction .* sent to/), 'b did not pass it on');
  t.equal(b.p2p.peers().length, 2, 'nobody was dropped');
});

t.test(
  'with the real pool: a registration submitted to one node is mined by another and reaches all three chains',
  async (t) => {
    relaySettings({});
    const a = await startNode('a', {}, t);
    const b = await startNode('b', { addPeers: [a.address] }, t);
    const c = await startNode('c', { addPeers: [b.address], maxPeers: 1 }, t);
    await waitUntil('the line a–b–c is up', () => b.p2p.peers().length === 2 && c.p2p.peers().length === 1);
    await gossipLineUp(a, b, c);
    const core = a.app.container.cradle.core;
    const secret = core.keccak256(new TextEncoder().encode('relayed account'));
    const key = core.g1Compress(core.g1MulSecret(core.generators('UMBRA').G, secret));
    const pool = (node: TestNode): TxPoolService => node.app.container.cradle.txPool;
    const registration = encodeTransaction(makeRegistration(core, core.generators('UMBRA').G, secret, 0));
    const txid = pool(a).add(registration, { local: true });
    await waitUntil('c has the registration', () => pool(c).has(txid));
    await mine(c);
    await waitUntil('every chain has the block', () => converged(a, b, c));
    for (const node of [a, b, c]) t.ok(node.chain.isRegistered(key), `${node.name} sees the account registered`);
    for (const node of [a, b, c]) t.equal(pool(node).size, 0, `${node.name}'s pool let it go`);
  },
);

t.test('a node that connects later is told of the pending transactions and fetches them', async (t) => {
  const a = await startNode('a', { plugins }, t);
  poolOf(a).add(Buffer.from('waiting 1'));
  poolOf(a).add(Buffer.from('waiting 2'));
  const b = await startNode('b', { plugins, addPeers: [a.address] }, t);
  await waitUntil('b has both', () => poolOf(b).txs.size === 2);
  t.pass('newTxs on the handshake, getTxs for the bodies');
});
