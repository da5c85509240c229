/**
 * The network bench's quick mode: N simulator daemons in the bench's own process on loopback (wan-network.ts), seen
 * through the interface the bench measures (network-under-test.ts). A kill leaves nothing behind.
 */
import { toHex } from '../../protocol/bytes.js';
import { decodeMiniblock } from '../../protocol/miniblock.js';
import { premineKey } from '../../protocol/premine.js';
import { startNode, waitUntil } from '../../test/helpers/p2p.js';
import { recordArrival, type Arrivals, type NetworkUnderTest } from './network-under-test.js';
import { nodeHost, startWanNetwork, type WanOptions } from './wan-network.js';

export async function startInProcessNetwork(options: WanOptions): Promise<NetworkUnderTest> {
  const network = await startWanNetwork(options);
  const { nodes } = network;
  const core = nodes[0]!.app.container.cradle.core;
  const key = premineKey(core, 'simulator');
  const fluffs: Arrivals = new Map();
  nodes.forEach((node, index) => {
    const push = node.logLines.push.bind(node.logLines);
    node.logLines.push = (...lines: string[]): number => {
      for (const line of lines) {
        const txid = /fluffing transaction ([0-9a-f]+)/.exec(line)?.[1];
        if (txid) recordArrival(fluffs, txid, index, Date.now());
      }
      return push(...lines);
    };
  });
  return {
    size: nodes.length,
    core,
    blockArrivals: network.blockArrivals,
    miniblockArrivals: network.miniblockArrivals,
    fluffs,
    top: (index) => ({ id: toHex(nodes[index]!.chain.top.id), height: nodes[index]!.chain.top.height }),
    mainChain: async (fromHeight) => {
      const { chain } = nodes[0]!;
      const ids: string[] = [];
      let bytes = 0;
      for (let height = fromHeight + 1n; height <= chain.top.height; height++) {
        const meta = chain.metaAtTopo(height)!;
        ids.push(toHex(meta.id));
        bytes += chain.blockBytes(meta.id)?.length ?? 0;
      }
      return { ids, bytes };
    },
    mine: async (index, found = () => true) => {
      const { mining } = nodes[index]!;
      const job = mining.template(key);
      if (!found(decodeMiniblock(job.blob).final)) return false;
      return (await mining.submit(job.id, job.blob).catch(() => ({ block_found: false }))).block_found;
    },
    submit: async (index, tx) => toHex(nodes[index]!.app.container.cradle.txPool.add(tx, { local: true })),
    partition: network.partition,
    heal: network.heal,
    bytes: network.bytes,
    links: () => network.links.map(({ a, b, relay }) => ({ a, b, delayMs: relay.delayMs })),
    p2pAddress: (index) => ({ host: nodeHost(index), port: nodes[index]!.p2p.port }),
    strangerAddresses: (count) => Array.from({ length: count }, (_, i) => `127.9.${i}.2`),
    join: async (to, delayMs) => {
      const joiner = await startNode('joiner', { p2pBind: '' });
      try {
        const started = Date.now();
        await network.link(joiner, to, delayMs, network.links.length);
        await waitUntil('the joiner has its first block', () => joiner.chain.top.height >= 1n, 60_000);
        return Date.now() - started;
      } finally {
        await joiner.app.stop();
      }
    },
    stop: network.stop,
  };
}
