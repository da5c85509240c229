/**
 * Strangers holding idle sockets on a node's P2P port do not keep an honest peer out: handshakes in progress are
 * limited per address and per network, far below the node-wide limit, and an idle one is cut off soon.
 */
import t, { type Test } from 'tap';
import { floodSockets, SOCKET_PACE_MS } from '../../../bench/lib/socket-flood.js';
import { HandshakeSlots, networkOf } from '../../../plugins/p2p/handshake-slots.js';
import { startNode, waitUntil } from '../../helpers/p2p.js';

/** How long an honest peer may take to connect (and complete our handshake) while the flood goes on, ms. */
const JOIN_WITHIN_MS = 2_000;

async function joinsUnderFlood(t: Test, fromAddresses: string[]): Promise<void> {
  const node = await startNode('node', {}, t);
  const flood = floodSockets('127.0.0.1', node.p2p.port, fromAddresses, 12);
  t.teardown(() => flood.stop());
  // Every socket opened once: long enough for libp2p's node-wide count of handshakes in progress to fill, were nothing
  // else in the way.
  await new Promise((resolve) => setTimeout(resolve, 13 * SOCKET_PACE_MS));
  t.ok(flood.open() > 0, `the flood holds ${flood.open()} sockets`);
  const joiner = await startNode('joiner', { p2pBind: '' }, t);
  const started = Date.now();
  await joiner.p2p.connect(node.address);
  await waitUntil('the joiner completed the handshake', () => joiner.p2p.peers().length === 1, JOIN_WITHIN_MS);
  t.ok(Date.now() - started < JOIN_WITHIN_MS, `connected in ${Date.now() - started} ms`);
}

t.test('an honest peer connects while one address holds 12 idle sockets', (t) => joinsUnderFlood(t, ['127.0.0.2']));

t.test('an honest peer connects while 16 addresses, each of its own /24, hold 12 idle sockets each', (t) =>
  joinsUnderFlood(
    t,
    Array.from({ length: 16 }, (_, i) => `127.0.${i + 1}.2`),
  ),
);

t.test('handshake limits group addresses by /24 and /64', async (t) => {
  t.equal(networkOf('10.1.2.3'), '10.1.2.0/24');
  t.equal(networkOf('::ffff:10.1.2.3'), '10.1.2.0/24', 'an IPv4-mapped address is its IPv4 network');
  t.equal(networkOf('2001:db8:0:1::7'), '2001:db8:0:1::/64');
  t.equal(networkOf('2001:DB8:0000:0001:ffff::1'), '2001:db8:0:1::/64', 'spelt another way, the same network');
  t.equal(networkOf('::1'), '0:0:0:0::/64');
});

t.test(
  'an address, and a network, hold at most their share of connections in their handshake; a finished one gives its slot back',
  async (t) => {
    const slots = new HandshakeSlots({ perAddress: 3, perNetwork: 3 });
    const first = slots.take('10.0.0.1', 1);
    t.ok(first && slots.take('10.0.0.1', 1), 'two from an address with one connection');
    t.notOk(slots.take('10.0.0.1', 1), 'not a third: it would have four connections');
    t.equal(slots.full('10.0.0.1', 1), 'address', 'the address holds its share');
    t.ok(slots.take('10.0.0.2', 0), 'a third from the network, by another address');
    t.notOk(slots.take('10.0.0.3', 0), 'not a fourth from the network');
    t.equal(slots.full('10.0.0.3', 0), 'network', 'the network holds its share');
    t.equal(slots.full('10.0.1.1', 0), undefined, 'another network has room');
    t.ok(slots.take('10.0.1.1', 0), 'another network is not affected');
    first!();
    first!();
    t.ok(slots.take('10.0.0.3', 0), 'a slot given back (once, however often released) is free again');
    t.notOk(slots.take('10.0.0.4', 0));
  },
);
