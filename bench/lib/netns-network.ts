/**
 * The network bench's process mode (`UMBRA_BENCH_NETNS=1`, root): every node a `bin/umbra daemon` process in a
 * network namespace of its own (netns-lab.ts), joined in the same random graph as the in-process mode, every link a
 * delay relay in the bench's namespace (the kernel has no netem: the delay is added in user space) that the link's
 * first node has as a configured peer. What the bench measures is read from the daemons' logs and RPC
 * (daemon-process.ts). Stopping — also on SIGINT or SIGTERM — kills the daemons and removes the namespaces, the
 * bridge and its addresses; a run killed with SIGKILL leaves them to the next run, which removes them first.
 */
import { loadCore } from '../../core-native/ts/index.js';
import { encodeAddress } from '../../protocol/address.js';
import { decodeMiniblock } from '../../protocol/miniblock.js';
import { premineKey } from '../../protocol/premine.js';
import { waitUntil } from '../../test/helpers/p2p.js';
import { delayRelay, type DelayRelay } from './delay-relay.js';
import { P2P_PORT, startDaemon, type DaemonEvent, type DaemonProcess } from './daemon-process.js';
import { createLab, removeLab } from './netns-lab.js';
import { recordArrival, type Arrivals, type NetworkUnderTest } from './network-under-test.js';
import { randomGraph, seeded, type WanOptions } from './wan-network.js';

interface Link {
  a: number;
  b: number;
  relay: DelayRelay;
}

export async function startNetnsNetwork(options: WanOptions): Promise<NetworkUnderTest> {
  const { size, degree, seed, minDelayMs = 20, maxDelayMs = 200 } = options;
  const core = await loadCore();
  const premineAddress = encodeAddress('simulator', premineKey(core, 'simulator'));
  // The last namespace is the joiner's.
  const lab = createLab(size + 1);
  process.once('exit', removeLab);
  const blockArrivals: Arrivals = new Map();
  const miniblockArrivals: Arrivals = new Map();
  const fluffs: Arrivals = new Map();
  const listener =
    (index: number) =>
    (event: DaemonEvent): void => {
      if (event.kind === 'block') recordArrival(blockArrivals, event.id, index, event.at);
      if (event.kind === 'miniblock') recordArrival(miniblockArrivals, event.blob, index, event.at);
      if (event.kind === 'fluff') recordArrival(fluffs, event.txid, index, event.at);
    };

  const random = seeded(seed);
  const links: Link[] = [];
  // Only the link's first node may use it: a node that heard of its address by peer exchange is refused.
  const relay = (from: number, to: number, delayMs: number, index: number): Promise<DelayRelay> => {
    const address = lab.linkAddress(index);
    const target = { host: lab.nodeAddress(to), port: P2P_PORT };
    return delayRelay(address, target, address, delayMs, lab.nodeAddress(from));
  };
  for (const [index, [a, b]] of randomGraph(size, degree, random).entries())
    links.push({ a, b, relay: await relay(a, b, minDelayMs + random() * (maxDelayMs - minDelayMs), index) });
  const daemons: DaemonProcess[] = [];
  const logDir = process.env.UMBRA_BENCH_LOG_DIR;
  const start = (index: number, addPeers: string[], listen: boolean, onEvent = listener(index)) =>
    startDaemon({
      logFile: logDir && `${logDir}/n${index}.log`,
      namespace: lab.namespace(index),
      host: lab.nodeAddress(index),
      listen,
      addPeers,
      maxPeers: 3 * degree,
      onEvent,
    });
  // A few at a time: fifty node starts at once would starve each other of the two cores.
  for (let first = 0; first < size; first += 4) {
    const batch = Array.from({ length: Math.min(4, size - first) }, (_, k) => first + k);
    const started = await Promise.all(
      batch.map((i) =>
        start(
          i,
          links.filter((link) => link.a === i).map((link) => link.relay.address),
          true,
        ),
      ),
    );
    daemons.push(...started);
  }
  const linksOf = (i: number): number => links.filter((link) => link.a === i || link.b === i).length;
  const connected = daemons.map(() => false);
  const deadline = Date.now() + 180_000;
  while (!connected.every(Boolean)) {
    if (Date.now() > deadline) throw new Error('timed out waiting until every link completed its handshake');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await Promise.all(
      daemons.map(async (daemon, i) => {
        if (connected[i]) return;
        const info = await daemon
          .rpc<{ incoming_connections_count: number; outgoing_connections_count: number }>('NODE.GetInfo')
          .catch(() => undefined);
        if (info) connected[i] = info.incoming_connections_count + info.outgoing_connections_count >= linksOf(i);
      }),
    );
  }

  const stop = async (): Promise<void> => {
    await Promise.all(daemons.map((daemon) => daemon.stop()));
    await Promise.all(links.map(({ relay }) => relay.close()));
    removeLab();
  };
  return {
    size,
    core,
    blockArrivals,
    miniblockArrivals,
    fluffs,
    top: (index) => daemons[index]!.top,
    mainChain: async (fromHeight) => {
      const ids: string[] = [];
      let bytes = 0;
      for (let height = fromHeight + 1n; height <= daemons[0]!.top.height; height++) {
        const { blob, block_header } = await daemons[0]!.rpc<{ blob: string; block_header: { hash: string } }>(
          'NODE.GetBlock',
          { height: Number(height) },
        );
        ids.push(block_header.hash);
        bytes += blob.length / 2;
      }
      return { ids, bytes };
    },
    mine: async (index, found = () => true) => {
      const daemon = daemons[index]!;
      try {
        const job = await daemon.rpc<{ jobid: string; blockhashing_blob: string }>('NODE.GetBlockTemplate', {
          wallet_address: premineAddress,
        });
        if (!found(decodeMiniblock(Buffer.from(job.blockhashing_blob, 'hex')).final)) return false;
        const result = await daemon.rpc<{ block_found: boolean }>('NODE.SubmitBlock', {
          jobid: job.jobid,
          mbl_blob: job.blockhashing_blob,
        });
        return result.block_found;
      } catch {
        // A template gone stale under a new block, as a real miner's would.
        return false;
      }
    },
    submit: async (index, tx) =>
      (
        await daemons[index]!.rpc<{ txid: string }>('NODE.SendRawTransaction', {
          tx_as_hex: Buffer.from(tx).toString('hex'),
        })
      ).txid,
    partition: (side) => {
      for (const { a, b, relay } of links) if (side.has(a) !== side.has(b)) relay.cut();
    },
    heal: () => {
      for (const { relay } of links) relay.restore();
    },
    bytes: () => links.reduce((sum, { relay }) => sum + relay.bytes(), 0),
    links: () => links.map(({ a, b, relay }) => ({ a, b, delayMs: relay.delayMs })),
    p2pAddress: (index) => ({ host: lab.nodeAddress(index), port: P2P_PORT }),
    strangerAddresses: (count) => Array.from({ length: count }, (_, i) => lab.strangerAddress(i)),
    join: async (to, delayMs) => {
      const link = await relay(size, to, delayMs, links.length);
      let p2pAt = 0;
      let firstBlockAt = 0;
      const joiner = await start(size, [link.address], false, (event) => {
        if (event.kind === 'p2p-started') p2pAt = event.at;
        if (event.kind === 'block' && event.main && event.height >= 1n && !firstBlockAt) firstBlockAt = event.at;
      });
      try {
        await waitUntil('the joiner has its first block', () => firstBlockAt > 0, 60_000);
        return firstBlockAt - p2pAt;
      } finally {
        await joiner.stop();
        await link.close();
      }
    },
    stop,
  };
}
