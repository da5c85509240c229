/**
 * A network at scale on this machine: N in-process simulator daemons (memory store) in a random graph of degree d,
 * every link a relay with a one-way delay of 20–200 ms (bench/lib/wan-network.ts), several miners and transactions
 * submitted at random nodes. Reports block and miniblock arrival (p50/p90/p99 over blocks of the time to reach 90 %
 * of nodes), the side-block rate, bytes per node per block beside the mean block size, how long a partition of half
 * the nodes takes to heal into one chain, how long a new node takes to get its first block from a neighbour that
 * 16 addresses × 12 idle sockets hold, how soon a submitted transaction is announced, and how often the first node
 * to announce it is its origin (an observer hearing every node's gossip would guess that one). `UMBRA_BENCH_NODES`
 * (default 20), `UMBRA_BENCH_DEGREE` (8) and `UMBRA_BENCH_BLOCKS` (12) size the run. Everything is in this process
 * on loopback: a kill leaves nothing behind.
 */
import { makeRegistration } from '../protocol/registration.js';
import { encodeTransaction } from '../protocol/transaction.js';
import { toHex } from '../protocol/bytes.js';
import { premineKey } from '../protocol/premine.js';
import { converged, mine, startNode, waitUntil } from '../test/helpers/p2p.js';
import { runBench, type BenchRow } from './harness.js';
import { floodSockets } from './lib/socket-flood.js';
import { nodeHost, seeded, startWanNetwork, type WanNetwork } from './lib/wan-network.js';

const NODES = Number(process.env.UMBRA_BENCH_NODES ?? 20);
const DEGREE = Number(process.env.UMBRA_BENCH_DEGREE ?? 8);
const BLOCKS = Number(process.env.UMBRA_BENCH_BLOCKS ?? 12);
const MINERS = 3;
const TRANSACTIONS = 20;
/** The testnet's block time: ten miniblocks, one every 1.8 s on average, from any miner. */
const MINIBLOCK_MEAN_MS = 1_800;
const impl = `n${NODES}-d${DEGREE}`;
const random = seeded(3636);
const rows: BenchRow[] = [];
const row = (name: string, unit: string, value: number): void => {
  rows.push({ case: name, impl, unit, value: Math.round(value * 1000) / 1000 });
};
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The value at `share` (0–1) of the sorted numbers. */
function quantile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? Number.NaN;
}

/** For each item that reached 90 % of the nodes: ms from its first arrival anywhere to its arrival at 90 % of them. */
function timesTo90(arrivals: Map<string, Map<number, number>>, keys: Iterable<string>): number[] {
  const out: number[] = [];
  for (const key of keys) {
    const times = [...(arrivals.get(key)?.values() ?? [])].sort((a, b) => a - b);
    const needed = Math.ceil(0.9 * NODES);
    if (times.length >= needed) out.push(times[needed - 1]! - times[0]!);
  }
  return out;
}

/** Miniblocks from random miners at exponential intervals, until `blocks` blocks joined the main chain. */
async function mineAtBlockTime(network: WanNetwork, blocks: number): Promise<void> {
  const miners = network.nodes.slice(0, MINERS);
  const key = premineKey(miners[0]!.app.container.cradle.core, 'simulator');
  const start = network.nodes[0]!.chain.top.height;
  while (network.nodes[0]!.chain.top.height < start + BigInt(blocks)) {
    await sleep(-Math.log(1 - random()) * MINIBLOCK_MEAN_MS);
    const miner = miners[Math.floor(random() * miners.length)]!;
    const job = miner.mining.template(key);
    await miner.mining.submit(job.id, job.blob).catch(() => {});
  }
}

async function propagation(network: WanNetwork): Promise<void> {
  const { nodes, blockArrivals, miniblockArrivals } = network;
  const bytesBefore = network.bytes();
  const fromHeight = nodes[0]!.chain.top.height;
  const seenBefore = new Set(blockArrivals.keys());
  const miniblocksBefore = new Set(miniblockArrivals.keys());
  await mineAtBlockTime(network, BLOCKS);
  await sleep(3000);
  const bytes = network.bytes() - bytesBefore;
  const main: string[] = [];
  let blockBytes = 0;
  for (let height = fromHeight + 1n; height <= nodes[0]!.chain.top.height; height++) {
    const meta = nodes[0]!.chain.metaAtTopo(height)!;
    main.push(toHex(meta.id));
    blockBytes += nodes[0]!.chain.blockBytes(meta.id)?.length ?? 0;
  }
  const block = timesTo90(blockArrivals, main);
  const miniblock = timesTo90(
    miniblockArrivals,
    [...miniblockArrivals.keys()].filter((key) => !miniblocksBefore.has(key)),
  );
  for (const [name, share] of [
    ['p50', 0.5],
    ['p90', 0.9],
    ['p99', 0.99],
  ] as const) {
    row(`block-${name}-to-90pct`, 'ms', quantile(block, share));
    row(`miniblock-${name}-to-90pct`, 'ms', quantile(miniblock, share));
  }
  const newBlocks = [...blockArrivals.keys()].filter((key) => !seenBefore.has(key));
  row('side-block-rate', 'ratio', newBlocks.length ? (newBlocks.length - main.length) / newBlocks.length : 0);
  row('bytes-per-node-per-block', 'bytes', bytes / NODES / Math.max(1, main.length));
  row('mean-block-size', 'bytes', blockBytes / Math.max(1, main.length));
}

async function partitionHeal(network: WanNetwork): Promise<void> {
  const { nodes } = network;
  const half = new Set(nodes.map((_, i) => i).filter((i) => i < NODES / 2));
  network.partition(half);
  await mine(nodes[0]!, 2);
  await mine(nodes[NODES - 1]!, 3);
  await sleep(3000);
  network.heal();
  const healed = Date.now();
  await waitUntil('one top everywhere', () => converged(...nodes), 120_000);
  row('partition-heal', 'ms', Date.now() - healed);
}

async function joinUnderFlood(network: WanNetwork): Promise<void> {
  const neighbour = network.nodes[0]!;
  const strangers = Array.from({ length: 16 }, (_, i) => `127.9.${i}.2`);
  const flood = floodSockets(nodeHost(0), neighbour.p2p.port, strangers, 12);
  await sleep(3000);
  const joiner = await startNode('joiner', { p2pBind: '' });
  const started = Date.now();
  await network.link(joiner, 0, 100, network.links.length);
  await waitUntil('the joiner has its first block', () => joiner.chain.top.height >= 1n, 60_000);
  row('join-under-flood', 'ms', Date.now() - started);
  flood.stop();
  await joiner.app.stop();
}

/** Registrations of fresh keys submitted at random nodes; the first node to announce each is seen in the logs. */
async function transactions(network: WanNetwork): Promise<void> {
  const { nodes } = network;
  const firstFluff = new Map<string, { node: number; at: number }>();
  nodes.forEach((node, index) => {
    const push = node.logLines.push.bind(node.logLines);
    node.logLines.push = (...lines: string[]): number => {
      for (const line of lines) {
        const txid = /fluffing transaction ([0-9a-f]+)/.exec(line)?.[1];
        if (txid && !firstFluff.has(txid)) firstFluff.set(txid, { node: index, at: Date.now() });
      }
      return push(...lines);
    };
  });
  const core = nodes[0]!.app.container.cradle.core;
  const G = core.generators('UMBRA').G;
  const submitted: { txid: string; origin: number; at: number }[] = [];
  for (let i = 0; i < TRANSACTIONS; i++) {
    const origin = Math.floor(random() * NODES);
    const secret = core.keccak256(new TextEncoder().encode(`network bench account ${i} ${Date.now()}`));
    const bytes = encodeTransaction(makeRegistration(core, G, secret, 0));
    const at = Date.now();
    const txid = nodes[origin]!.app.container.cradle.txPool.add(bytes, { local: true });
    submitted.push({ txid: toHex(txid), origin, at });
    await sleep(300);
  }
  await waitUntil(
    'every transaction was announced',
    () => submitted.every(({ txid }) => firstFluff.has(txid)),
    180_000,
  );
  const delays = submitted.map(({ txid, at }) => firstFluff.get(txid)!.at - at);
  row('tx-to-gossip', 'ms', quantile(delays, 0.5));
  const right = submitted.filter(({ txid, origin }) => firstFluff.get(txid)!.node === origin).length;
  row('dandelion-first-spy', 'share', right / submitted.length);
}

// libp2p can reject a promise nobody awaits with a stream's close event when a link is cut mid-write: counted and
// reported, rather than ending the run.
let strayRejections = 0;
process.on('unhandledRejection', (reason) => {
  strayRejections++;
  console.error(`unhandled rejection in the daemons: ${String(reason)}`);
});
const network = await startWanNetwork({ size: NODES, degree: DEGREE, seed: 36 });
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void network.stop().finally(() => process.exit(130));
  });
await mine(network.nodes[0]!, 1);
await waitUntil('every node has the first block', () => converged(...network.nodes), 120_000);
await propagation(network);
await transactions(network);
await partitionHeal(network);
await joinUnderFlood(network);
await network.stop();
row('unhandled-rejections', 'count', strayRejections);
runBench('network', rows);
process.exit(0);
