/**
 * Past this machine: the discrete-event model (bench/lib/gossip-model.ts) projects block and miniblock propagation
 * and bandwidth to 1 000 and 10 000 nodes. Its per-hop cost is the one the network bench measured
 * (bench/results/network.json: `block-hop`, `miniblock-hop`, the median of how much later a node has an item than
 * its nearest neighbour could have passed it on); run at the bench's own size it should give back the bench's
 * median time to 90 % (the `…-check` rows). Work is lost while a new block has not reached a miner: the miner goes on
 * building on the old top. With mining power spread evenly over the nodes and blocks completed at a rate 1/T, the
 * share lost is 1 − e^(−d/T), d being the block's mean arrival delay over the nodes (not the time to 90 %, which
 * counts the slowest tenth fully). Side blocks come faster than that: a block is completed by a final miniblock,
 * mined at 9 times the difficulty of an ordinary one, so half a block's work (9 D of 18 D) goes into finals and the
 * miners find one every T/2; a final another miner finds before the block reaches it completes a competing block. The
 * share of blocks that meet a competitor is 1 − e^(−2·d/T), and the shortest block time rows solve that for the 2 %
 * budget. Assumptions:
 * gossipsub's D = 6, links of 20–200 ms one way, 100 Mbit/s of upload at every node, no loss, no queueing between
 * messages, the measured per-hop cost at every node. docs/operations.md § Network quotes it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { HASHES_PER_DIFFICULTY } from '../protocol/hash-rate.js';
import { FINAL_DIFFICULTY_MULTIPLIER } from '../protocol/miniblock.js';
import { runBench, type BenchRow } from './harness.js';
import { spread, type ModelInputs } from './lib/gossip-model.js';

const MESH_DEGREE = 6;
const TRIALS = 20;
/** A miniblock message on the wire: 48 bytes and gossipsub's framing. */
const MINIBLOCK_WIRE_BYTES = 160;
/** The testnet's block time, ms. */
const BLOCK_TIME_MS = 18_000;
const BASE: Omit<ModelInputs, 'nodes' | 'hopMs' | 'size'> = {
  meshDegree: MESH_DEGREE,
  minDelayMs: 20,
  maxDelayMs: 200,
  uploadBytesPerMs: 12_500,
  seed: 36,
};
/** A block's work over the work of its final miniblock: finals are found this many times a block time. */
const FINALS_PER_BLOCK_TIME = Number(HASHES_PER_DIFFICULTY / FINAL_DIFFICULTY_MULTIPLIER);
/** At most this share of blocks may go to side branches. */
const SIDE_BLOCK_BUDGET = 0.02;

interface Measured {
  nodes: number;
  blockHop: number;
  miniblockHop: number;
  blockP50: number;
  blockSize: number;
}

/** The network bench's figures, or those of a 20-node in-process run when it has not run. */
function measured(): Measured {
  const path = 'bench/results/network.json';
  const rows: BenchRow[] = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : [];
  const value = (name: string, fallback: number): number => rows.find((row) => row.case === name)?.value ?? fallback;
  return {
    nodes: Number(/n(\d+)-d/.exec(rows[0]?.impl ?? '')?.[1] ?? 20),
    blockHop: value('block-hop', 15),
    miniblockHop: value('miniblock-hop', 10),
    blockP50: value('block-p50-to-90pct', 450),
    blockSize: value('mean-block-size', 600),
  };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const quantile = (values: number[], share: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(share * values.length) - 1)]!;

const m = measured();
const rows: BenchRow[] = [];
const row = (name: string, impl: string, unit: string, value: number): void => {
  rows.push({ case: name, impl, unit, value: Math.round(value * 1000) / 1000 });
};
const blocksOver = (nodes: number, size = m.blockSize) => spread({ ...BASE, nodes, size, hopMs: m.blockHop }, TRIALS);
// The model against the bench at the bench's own size: the measured median beside the modelled one.
row('block-p50-to-90pct-check', `n${m.nodes}-measured`, 'ms', m.blockP50);
row('block-p50-to-90pct-check', `n${m.nodes}-model`, 'ms', median(blocksOver(m.nodes).map((s) => s.to90)));
for (const nodes of [1_000, 10_000]) {
  const impl = `n${nodes}`;
  const blocks = blocksOver(nodes);
  const miniblocks = spread({ ...BASE, nodes, size: MINIBLOCK_WIRE_BYTES, hopMs: m.miniblockHop }, TRIALS);
  for (const [name, share] of [
    ['p50', 0.5],
    ['p90', 0.9],
    ['p99', 0.99],
  ] as const) {
    row(
      `block-${name}-to-90pct`,
      impl,
      'ms',
      quantile(
        blocks.map((s) => s.to90),
        share,
      ),
    );
    row(
      `miniblock-${name}-to-90pct`,
      impl,
      'ms',
      quantile(
        miniblocks.map((s) => s.to90),
        share,
      ),
    );
  }
  // Ten miniblocks and one block a block time, each node sending its share of the copies.
  const perBlock = median(blocks.map((s) => s.bytesPerNode)) + 10 * median(miniblocks.map((s) => s.bytesPerNode));
  row('bytes-sent-per-node-per-block', impl, 'bytes', perBlock);
  const meanArrival = median(blocks.map((s) => s.meanArrival));
  row('lost-work-at-18s', impl, 'ratio', 1 - Math.exp(-meanArrival / BLOCK_TIME_MS));
  row('side-block-rate-at-18s', impl, 'ratio', 1 - Math.exp((-FINALS_PER_BLOCK_TIME * meanArrival) / BLOCK_TIME_MS));
  for (const [label, size] of [
    ['64KiB', 64 * 1024],
    ['1MiB', 1024 * 1024],
    ['4MiB', 4 * 1024 * 1024],
  ] as const) {
    const delay = median(blocksOver(nodes, size).map((s) => s.meanArrival));
    // The shortest block time T with 1 − e^(−2·d/T) ≤ the budget.
    row(`shortest-block-time-${label}`, impl, 'ms', (-FINALS_PER_BLOCK_TIME * delay) / Math.log(1 - SIDE_BLOCK_BUDGET));
  }
}
runBench('network-model', rows);
