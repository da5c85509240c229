/**
 * Five daemons with WAN delays on their links (bench/lib/wan-network.ts): split in two, each side mining its own
 * branch, they agree on one chain soon after the links return; and a new node joins through a neighbour that strangers
 * flood with idle sockets. `make bench BENCH=network` runs the same at a larger scale.
 */
import t from 'tap';
import { floodSockets } from '../../../bench/lib/socket-flood.js';
import { nodeHost, startWanNetwork } from '../../../bench/lib/wan-network.js';
import { converged, mine, startNode, waitUntil } from '../../helpers/p2p.js';

t.test('a partition of five WAN nodes heals into one chain; a node joins under a socket flood', async (t) => {
  const network = await startWanNetwork({ size: 5, degree: 3, seed: 36 });
  t.teardown(() => network.stop());
  const [n0, , , n3] = network.nodes;
  await mine(n0!, 2);
  await waitUntil('every node has the first blocks', () => converged(...network.nodes));

  network.partition(new Set([0, 1]));
  await mine(n0!, 2);
  await mine(n3!, 3);
  await waitUntil('each side took its own branch', () => converged(n0!, network.nodes[1]!) && !converged(n0!, n3!));
  t.not(n0!.chain.top.height, n3!.chain.top.height, 'the two sides have tops of their own');
  network.heal();
  const healed = Date.now();
  await waitUntil('one chain everywhere', () => converged(...network.nodes), 30_000);
  t.ok(converged(...network.nodes), 'one chain everywhere after the partition heals');
  t.comment(`one top everywhere ${Date.now() - healed} ms after the links returned`);

  const flood = floodSockets(
    nodeHost(0),
    n0!.p2p.port,
    Array.from({ length: 16 }, (_, i) => `127.9.${i}.2`),
    12,
  );
  t.teardown(() => flood.stop());
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const joiner = await startNode('joiner', { p2pBind: '' }, t);
  const started = Date.now();
  await network.link(joiner, 0, 100, network.links.length);
  // Before the handshake limits, the joiner got in only once the flood ended: never within this bound.
  await waitUntil('the joiner has the chain', () => converged(joiner, n0!), 15_000);
  t.ok(converged(joiner, n0!), 'the joiner reached the top through the flooded neighbour');
  t.comment(`the joiner had the top block ${Date.now() - started} ms after dialling a flooded neighbour`);
});
