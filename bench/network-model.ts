/**
 * Past this machine: the discrete-event model (bench/lib/gossip-model.ts) projects block and miniblock propagation
 * and bandwidth to 1 000 and 10 000 nodes. The per-hop cost is calibrated on the network bench's run
 * (bench/results/network.json): the cost at which the model, run at the bench's size and degree, gives the median
 * time to 90 % the bench measured. It also says at what block time a block of a given size would lose more than 2 %
 * of the work (miniblocks mined on the old top until the new block reaches their miner are wasted, and may end as
 * side blocks). Assumptions:
 * gossipsub's D = 6, links of 20–200 ms one way, 100 Mbit/s of upload at every node, no loss, no queueing between
 * messages. docs/operations.md § Network quotes it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { runBench, type BenchRow } from './harness.js';
import { spread, type ModelInputs } from './lib/gossip-model.js';

const MESH_DEGREE = 6;
const TRIALS = 20;
/** A miniblock message on the wire: 48 bytes and gossipsub's framing. */
const MINIBLOCK_WIRE_BYTES = 160;
const BASE: Omit<ModelInputs, 'nodes' | 'hopMs' | 'size'> = {
  meshDegree: MESH_DEGREE,
  minDelayMs: 20,
  maxDelayMs: 200,
  uploadBytesPerMs: 12_500,
  seed: 36,
};
/** At most this share of blocks may go to side branches. */
const SIDE_BLOCK_BUDGET = 0.02;

interface Measured {
  nodes: number;
  blockP50: number;
  miniblockP50: number;
  blockSize: number;
}

/** The network bench's figures, or those of a 20-node run on a quiet machine when it has not run. */
function measured(): Measured {
  const path = 'bench/results/network.json';
  const rows: BenchRow[] = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : [];
  const value = (name: string, fallback: number): number => rows.find((row) => row.case === name)?.value ?? fallback;
  const nodes = Number(/^n(\d+)/.exec(rows[0]?.impl ?? '')?.[1] ?? 20);
  return {
    nodes,
    blockP50: value('block-p50-to-90pct', 450),
    miniblockP50: value('miniblock-p50-to-90pct', 400),
    blockSize: value('mean-block-size', 2_000),
  };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const quantile = (values: number[], share: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(share * values.length) - 1)]!;

/** The per-hop cost at which the model reproduces a measured median time to 90 % (bisection over 0–2 000 ms). */
function calibrate(nodes: number, size: number, target: number): number {
  let low = 0;
  let high = 2_000;
  for (let step = 0; step < 25; step++) {
    const hopMs = (low + high) / 2;
    const p50 = median(spread({ ...BASE, nodes, size, hopMs }, TRIALS).map((s) => s.to90));
    if (p50 < target) low = hopMs;
    else high = hopMs;
  }
  return (low + high) / 2;
}

const m = measured();
const blockHopMs = calibrate(m.nodes, m.blockSize, m.blockP50);
const miniblockHopMs = calibrate(m.nodes, MINIBLOCK_WIRE_BYTES, m.miniblockP50);
const rows: BenchRow[] = [];
const row = (name: string, impl: string, unit: string, value: number): void => {
  rows.push({ case: name, impl, unit, value: Math.round(value * 1000) / 1000 });
};
row('calibrated-block-hop', `from-n${m.nodes}`, 'ms', blockHopMs);
row('calibrated-miniblock-hop', `from-n${m.nodes}`, 'ms', miniblockHopMs);
for (const nodes of [1_000, 10_000]) {
  const impl = `n${nodes}`;
  const blocks = spread({ ...BASE, nodes, size: m.blockSize, hopMs: blockHopMs }, TRIALS);
  const miniblocks = spread({ ...BASE, nodes, size: MINIBLOCK_WIRE_BYTES, hopMs: miniblockHopMs }, TRIALS);
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
  // Miniblocks mined on the old top while a new block travels are lost work: its share at the testnet's 18 s.
  const to90 = quantile(
    blocks.map((s) => s.to90),
    0.5,
  );
  row('lost-work-at-18s', impl, 'ratio', 1 - Math.exp(-to90 / 18_000));
  for (const [label, size] of [
    ['64KiB', 64 * 1024],
    ['1MiB', 1024 * 1024],
    ['4MiB', 4 * 1024 * 1024],
  ] as const) {
    const sized = median(spread({ ...BASE, nodes, size, hopMs: blockHopMs }, TRIALS).map((s) => s.to90));
    // The shortest block time T with 1 − e^(−t/T) ≤ the budget.
    row(`shortest-block-time-${label}`, impl, 'ms', -sized / Math.log(1 - SIDE_BLOCK_BUDGET));
  }
}
runBench('network-model', rows);
