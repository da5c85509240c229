/**
 * P2P over loopback between in-process simulator daemons: how fast a fresh node syncs a chain from a peer (blocks
 * validated and applied on RocksDB, per second) over the Noise-encrypted transport and, as its baseline, over
 * unencrypted libp2p (`sync-blocks-plain`), and how long a new block takes to cross two hops (a → b → c), from
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

/** Blocks per second a fresh node on RocksDB syncs SYNC_BLOCKS at, from a source over loopback. */
async function syncRate(): Promise<{ impl: string; rate: number }> {
  const source = await startNode('source');
  await mine(source, SYNC_BLOCKS);
  const fresh = await startNode('fresh', {
    store: 'rocksdb',
    dataDir: mkdtempSync(join(tmpdir(), 'umbra-bench-p2p-')),
  });
  const start = process.hrtime.bigint();
  await fresh.p2p.connect(source.address);
  await waitUntil('the fresh node has synced', () => converged(source, fresh), 600_000);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const impl = fresh.app.container.cradle.core.impl;
  await Promise.all([source.app.stop(), fresh.app.stop()]);
  return { impl, rate: Math.round(SYNC_BLOCKS / seconds) };
}

// Encrypted (the real transport), then the same sync without encryption: the baseline for what Noise costs. The
// two alternate over three rounds and each keeps its median, so that the machine's drift hits both alike.
const noise: number[] = [];
const plain: number[] = [];
let impl = '';
for (let round = 0; round < 3; round++) {
  const encrypted = await syncRate();
  impl = encrypted.impl;
  noise.push(encrypted.rate);
  process.env.UMBRA_P2P_PLAINTEXT = '1';
  plain.push((await syncRate()).rate);
  delete process.env.UMBRA_P2P_PLAINTEXT;
}
const median = (values: number[]): number => [...values].sort((x, y) => x - y)[1]!;
rows.push({ case: 'sync-blocks', impl, unit: 'blocks/s', value: median(noise) });
rows.push({ case: 'sync-blocks-plain', impl: 'daemon', unit: 'blocks/s', value: median(plain) });

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
