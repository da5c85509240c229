/** Transactions travel through the `txPool` service: admitted ones reach every pool, refused ones stop; mined anywhere. */
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { makeRegistration } from '../../../host/protocol/registration.js';
import { encodeTransaction } from '../../../host/protocol/transaction.js';
import type { TxPoolService } from '../../../host/services/tx-pool.js';
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

t.test(
  'a transaction admitted on one node reaches the pools two hops away; a refused one goes no further',
  async (t) => {
    const a = await startNode('a', { plugins }, t);
    const b = await startNode('b', { plugins, addPeers: [a.address] }, t);
    const c = await startNode('c', { plugins, addPeers: [b.address], maxPeers: 1 }, t);
    await waitUntil('the line a–b–c is up', () => b.p2p.peers().length === 2 && c.p2p.peers().length === 1);
    await waitUntil(
      'the gossip line is up',
      () => [a, b, c].map((node) => node.p2p.gossip.meshPeers('txs')).join() === '1,2,1',
    );
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
  'with the real pool: a registration sent to one node is mined by another and reaches all three chains',
  async (t) => {
    const a = await startNode('a', {}, t);
    const b = await startNode('b', { addPeers: [a.address] }, t);
    const c = await startNode('c', { addPeers: [b.address], maxPeers: 1 }, t);
    await waitUntil('the line a–b–c is up', () => b.p2p.peers().length === 2 && c.p2p.peers().length === 1);
    await waitUntil(
      'the gossip line is up',
      () => [a, b, c].map((node) => node.p2p.gossip.meshPeers('txs')).join() === '1,2,1',
    );
    const core = a.app.container.cradle.core;
    const secret = core.keccak256(new TextEncoder().encode('relayed account'));
    const key = core.g1Compress(core.g1MulSecret(core.generators('UMBRA').G, secret));
    const pool = (node: TestNode): TxPoolService => node.app.container.cradle.txPool;
    const txid = pool(a).add(encodeTransaction(makeRegistration(core, core.generators('UMBRA').G, secret, 0)));
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
