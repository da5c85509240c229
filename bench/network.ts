/**
 * A network at scale on this machine: N simulator daemons (memory store) in a random graph of degree d, every link a
 * relay with a one-way delay of 20–200 ms, several miners and transactions submitted at random nodes. Reports block
 * and miniblock arrival (p50/p90/p99 over blocks of the time to reach 90 % of nodes), the side-block rate, bytes per
 * node per block beside the mean block size, how long a partition of half the nodes takes to heal into one chain,
 * how long a new node takes to get its first block from a neighbour that 16 addresses × 12 idle sockets hold, how
 * soon a submitted transaction is announced, and how often the first node to announce it is its origin (an observer
 * hearing every node's gossip would guess that one). `UMBRA_BENCH_NODES` (default 20), `UMBRA_BENCH_DEGREE` (8) and
 * `UMBRA_BENCH_BLOCKS` (12) size the run. By default the daemons run in this process on loopback
 * (lib/in-process-network.ts); with `UMBRA_BENCH_NETNS=1` (root) each is a daemon process in a network namespace of
 * its own (lib/netns-network.ts), and stopping the bench removes them.
 */
import { FINAL_DIFFICULTY_MULTIPLIER } from '../protocol/miniblock.js';
import { makeRegistration } from '../protocol/registration.js';
import { encodeTransaction } from '../protocol/transaction.js';
import { waitUntil } from '../test/helpers/p2p.js';
import { runBench, type BenchRow } from './harness.js';
import { startInProcessNetwork } from './lib/in-process-network.js';
import { startNetnsNetwork } from './lib/netns-network.js';
import type { Arrivals, NetworkUnderTest } from './lib/network-under-test.js';
import { floodSockets } from './lib/socket-flood.js';
import { seeded } from './lib/wan-network.js';

const NODES = Number(process.env.UMBRA_BENCH_NODES ?? 20);
const DEGREE = Number(process.env.UMBRA_BENCH_DEGREE ?? 8);
const BLOCKS = Number(process.env.UMBRA_BENCH_BLOCKS ?? 12);
const MINERS = 3;
const TRANSACTIONS = 20;
/**
 * The testnet's pace: a block every 18 s takes the work of nine ordinary miniblocks at difficulty D and a final one at
 * 9·D, so the miners together find work meeting D once a second on average; such work meets a final miniblock's
 * target one time in nine.
 */
const WORK_MEAN_MS = 1_000;
const FINAL_SHARE = 1 / Number(FINAL_DIFFICULTY_MULTIPLIER);
const NETNS = process.env.UMBRA_BENCH_NETNS === '1';
const impl = `${NETNS ? 'netns' : 'in-process'}-n${NODES}-d${DEGREE}`;
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

/**
 * The cost of a hop, as measured: for each node an item reached that is not its origin, how much later it arrived
 * than the earliest a neighbour could have passed it on (that neighbour's arrival plus their link's delay). That is
 * the node's checking and handling before the item counts as arrived, plus any wait for a mesh peer that was not the
 * nearest; the median is what the model (network-model.ts) takes as its per-hop cost.
 */
function hopCosts(network: NetworkUnderTest, arrivals: Arrivals, keys: Iterable<string>): number[] {
  const links = network.links();
  const costs: number[] = [];
  for (const key of keys) {
    const times = arrivals.get(key);
    if (!times) continue;
    const origin = Math.min(...times.values());
    for (const [node, at] of times) {
      if (at === origin) continue;
      let earliest = Number.POSITIVE_INFINITY;
      for (const { a, b, delayMs } of links) {
        const neighbour = a === node ? b : b === node ? a : -1;
        const passed = times.get(neighbour);
        if (passed !== undefined) earliest = Math.min(earliest, passed + delayMs);
      }
      if (Number.isFinite(earliest)) costs.push(at - earliest);
    }
  }
  return costs;
}

/** Every node has the same top block. */
const converged = (network: NetworkUnderTest): boolean =>
  Array.from({ length: network.size }, (_, i) => network.top(i).id).every((id) => id === network.top(0).id);

/** Mines on node `index` until `count` blocks are found there. */
async function mine(network: NetworkUnderTest, index: number, count: number): Promise<void> {
  for (let found = 0; found < count; ) if (await network.mine(index)) found++;
}

/** For each item: the mean over the nodes it reached of the ms from its first arrival anywhere to its arrival there. */
function meanArrivals(arrivals: Arrivals, keys: Iterable<string>): number[] {
  const out: number[] = [];
  for (const key of keys) {
    const times = [...(arrivals.get(key)?.values() ?? [])];
    if (times.length < NODES) continue;
    const first = Math.min(...times);
    out.push(times.reduce((sum, at) => sum + at - first, 0) / times.length);
  }
  return out;
}

/**
 * Work meeting D found by random miners at exponential intervals, until `blocks` blocks joined the main chain: it
 * gives an ordinary miniblock, or a final one when it also meets the final target (each miner mines on its own
 * template, so the miner decides which).
 */
async function mineAtBlockTime(network: NetworkUnderTest, blocks: number): Promise<void> {
  const start = network.top(0).height;
  while (network.top(0).height < start + BigInt(blocks)) {
    await sleep(-Math.log(1 - random()) * WORK_MEAN_MS);
    await network.mine(Math.floor(random() * MINERS), (final) => !final || random() < FINAL_SHARE);
  }
}

async function propagation(network: NetworkUnderTest): Promise<void> {
  const { blockArrivals, miniblockArrivals } = network;
  const bytesBefore = network.bytes();
  const fromHeight = network.top(0).height;
  const seenBefore = new Set(blockArrivals.keys());
  const miniblocksBefore = new Set(miniblockArrivals.keys());
  await mineAtBlockTime(network, BLOCKS);
  await sleep(3000);
  const bytes = network.bytes() - bytesBefore;
  const { ids: main, bytes: blockBytes } = await network.mainChain(fromHeight);
  const block = timesTo90(blockArrivals, main);
  const newMiniblocks = [...miniblockArrivals.keys()].filter((key) => !miniblocksBefore.has(key));
  const miniblock = timesTo90(miniblockArrivals, newMiniblocks);
  for (const [name, share] of [
    ['p50', 0.5],
    ['p90', 0.9],
    ['p99', 0.99],
  ] as const) {
    row(`block-${name}-to-90pct`, 'ms', quantile(block, share));
    row(`miniblock-${name}-to-90pct`, 'ms', quantile(miniblock, share));
  }
  row('block-mean-arrival', 'ms', quantile(meanArrivals(blockArrivals, main), 0.5));
  row('block-hop', 'ms', quantile(hopCosts(network, blockArrivals, main), 0.5));
  row('miniblock-hop', 'ms', quantile(hopCosts(network, miniblockArrivals, newMiniblocks), 0.5));
  const newBlocks = [...blockArrivals.keys()].filter((key) => !seenBefore.has(key));
  row('side-block-rate', 'ratio', newBlocks.length ? (newBlocks.length - main.length) / newBlocks.length : 0);
  row('bytes-per-node-per-block', 'bytes', bytes / NODES / Math.max(1, main.length));
  row('mean-block-size', 'bytes', blockBytes / Math.max(1, main.length));
}

async function partitionHeal(network: NetworkUnderTest): Promise<void> {
  const half = new Set(Array.from({ length: NODES }, (_, i) => i).filter((i) => i < NODES / 2));
  network.partition(half);
  await mine(network, 0, 2);
  await mine(network, NODES - 1, 3);
  await sleep(3000);
  network.heal();
  const healed = Date.now();
  await waitUntil('one top everywhere', () => converged(network), 120_000);
  row('partition-heal', 'ms', Date.now() - healed);
}

async function joinUnderFlood(network: NetworkUnderTest): Promise<void> {
  const { host, port } = network.p2pAddress(0);
  const flood = floodSockets(host, port, network.strangerAddresses(16), 12);
  await sleep(3000);
  try {
    row('join-under-flood', 'ms', await network.join(0, 100));
  } finally {
    flood.stop();
  }
}

/** Registrations of fresh keys submitted at random nodes; the first node to announce each is seen in the logs. */
async function transactions(network: NetworkUnderTest): Promise<void> {
  const { core, fluffs } = network;
  const G = core.generators('UMBRA').G;
  const submitted: { txid: string; origin: number; at: number }[] = [];
  for (let i = 0; i < TRANSACTIONS; i++) {
    const origin = Math.floor(random() * NODES);
    const secret = core.keccak256(new TextEncoder().encode(`network bench account ${i} ${Date.now()}`));
    const bytes = encodeTransaction(makeRegistration(core, G, secret, 0));
    const at = Date.now();
    submitted.push({ txid: await network.submit(origin, bytes), origin, at });
    await sleep(300);
  }
  await waitUntil('every transaction was announced', () => submitted.every(({ txid }) => fluffs.has(txid)), 180_000);
  const first = (txid: string): { node: number; at: number } => {
    const [node, at] = [...fluffs.get(txid)!].reduce((a, b) => (b[1] < a[1] ? b : a));
    return { node, at };
  };
  row(
    'tx-to-gossip',
    'ms',
    quantile(
      submitted.map(({ txid, at }) => first(txid).at - at),
      0.5,
    ),
  );
  const right = submitted.filter(({ txid, origin }) => first(txid).node === origin).length;
  row('dandelion-first-spy', 'share', right / submitted.length);
}

// libp2p can reject a promise nobody awaits with a stream's close event when a link is cut mid-write: counted and
// reported, rather than ending the run.
let strayRejections = 0;
process.on('unhandledRejection', (reason) => {
  strayRejections++;
  console.error(`unhandled rejection in the daemons: ${String(reason)}`);
});
let started: NetworkUnderTest | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void (started?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  });
const options = { size: NODES, degree: DEGREE, seed: 36 };
const network = (started = NETNS ? await startNetnsNetwork(options) : await startInProcessNetwork(options));
await mine(network, 0, 1);
await waitUntil('every node has the first block', () => converged(network), 120_000);
await propagation(network);
await transactions(network);
await partitionHeal(network);
await joinUnderFlood(network);
await network.stop();
row('unhandled-rejections', 'count', strayRejections);
runBench('network', rows);
process.exit(0);
