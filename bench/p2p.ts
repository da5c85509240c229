/**
 * P2P over loopback between in-process simulator daemons: how fast a fresh node syncs a chain from one peer, and
 * from three at once (blocks validated and applied on RocksDB, per second), and how long a new block takes to cross two hops (a → b → c), from
 * its acceptance on a to its acceptance on c (median of 30 blocks).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHex } from '../host/protocol/bytes.js';
import { converged, mine, startNode, waitUntil, type TestNode } from '../test/helpers/p2p.js';
import { runBench, type BenchRow } from './harness.js';

const SYNC_BLOCKS = 500;
const HOPS_SAMPLES = 30;
const rows: BenchRow[] = [];

const source = await startNode('source');
await mine(source, SYNC_BLOCKS);
// Two more nodes with the same chain, for the fresh node to sync from three peers at once.
const mirrors = [
  await startNode('mirror1', { addPeers: [source.address] }),
  await startNode('mirror2', { addPeers: [source.address] }),
];
await waitUntil('the mirrors hold the chain', () => converged(source, ...mirrors), 600_000);

/** Blocks per second a fresh node (RocksDB) takes to sync the chain from `peers`. */
async function syncRate(peers: TestNode[]): Promise<{ impl: string; rate: number }> {
  const fresh = await startNode('fresh', {
    store: 'rocksdb',
    dataDir: mkdtempSync(join(tmpdir(), 'umbra-bench-p2p-')),
  });
  const start = process.hrtime.bigint();
  await Promise.all(peers.map((peer) => fresh.p2p.connect(peer.address)));
  await waitUntil('the fresh node has synced', () => converged(source, fresh), 600_000);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  await fresh.app.stop();
  return { impl: fresh.app.container.cradle.core.impl, rate: Math.round(SYNC_BLOCKS / seconds) };
}

const one = await syncRate([source]);
const impl = one.impl;
rows.push({ case: 'sync-blocks', impl, unit: 'blocks/s', value: one.rate });
rows.push({ case: 'sync-blocks-3peers', impl, unit: 'blocks/s', value: (await syncRate([source, ...mirrors])).rate });
await Promise.all([source, ...mirrors].map((node) => node.app.stop()));

const a = await startNode('a');
const b = await startNode('b', { addPeers: [a.address] });
const c = await startNode('c', { addPeers: [b.address], maxPeers: 1 });
await waitUntil('the line a–b–c is up', () => b.p2p.peers().length === 2 && c.p2p.peers().length === 1);
const acceptedAt = new Map<string, bigint>();
const latencies: number[] = [];
a.chain.onBlock((meta) => acceptedAt.set(toHex(meta.id), process.hrtime.bigint()));
c.chain.onBlock((meta) => {
  const at = acceptedAt.get(toHex(meta.id));
  if (at !== undefined) latencies.push(Number(process.hrtime.bigint() - at) / 1e6);
});
for (let i = 0; i < HOPS_SAMPLES; i++) {
  await mine(a);
  await waitUntil('c has the block', () => converged(a, c));
}
latencies.sort((x, y) => x - y);
rows.push({ case: 'propagate-2hops', impl, unit: 'ms', value: latencies[Math.floor(latencies.length / 2)]! });
await Promise.all([a.app.stop(), b.app.stop(), c.app.stop()]);

runBench('p2p', rows);
