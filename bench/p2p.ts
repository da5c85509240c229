/**
 * P2P over loopback between in-process simulator daemons: how fast a fresh node syncs a chain from a peer (blocks
 * validated and applied on RocksDB, per second), and how long a new block takes to cross two hops (a → b → c), from
 * its acceptance on a to its acceptance on c (median of 30 blocks).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHex } from '../host/protocol/bytes.js';
import { converged, mine, startNode, waitUntil } from '../test/helpers/p2p.js';
import { runBench, type BenchRow } from './harness.js';

const SYNC_BLOCKS = 500;
const HOPS_SAMPLES = 30;
const rows: BenchRow[] = [];

const source = await startNode('source');
await mine(source, SYNC_BLOCKS);
const fresh = await startNode('fresh', { store: 'rocksdb', dataDir: mkdtempSync(join(tmpdir(), 'umbra-bench-p2p-')) });
const impl = fresh.app.container.cradle.core.impl;
const start = process.hrtime.bigint();
await fresh.p2p.connect(source.address);
await waitUntil('the fresh node has synced', () => converged(source, fresh), 600_000);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
rows.push({ case: 'sync-blocks', impl, unit: 'blocks/s', value: Math.round(SYNC_BLOCKS / seconds) });
await Promise.all([source.app.stop(), fresh.app.stop()]);

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
