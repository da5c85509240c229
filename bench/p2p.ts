/**
 * P2P over loopback between in-process simulator daemons: how fast a fresh node syncs a chain (blocks validated and
 * applied on RocksDB, per second) from one peer over the Noise-encrypted transport, from three peers at once, and,
 * as the baseline of what encryption costs, from one peer over unencrypted libp2p (`sync-blocks-plain`); and how long
 * a new block takes to cross two hops (a → b → c), from its acceptance on a to its acceptance on c (median of 30).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHex } from '../protocol/bytes.js';
import { converged, mine, startNode, waitUntil, type TestNode } from '../test/helpers/p2p.js';
import { runBench, type BenchRow } from './harness.js';

const SYNC_BLOCKS = 500;
const HOPS_SAMPLES = 30;
const ROUNDS = 3;
const rows: BenchRow[] = [];

/** A source with SYNC_BLOCKS mined, and two mirrors holding the same chain. */
async function sources(): Promise<TestNode[]> {
  const source = await startNode('source');
  await mine(source, SYNC_BLOCKS);
  const mirrors = [
    await startNode('mirror1', { addPeers: [source.address] }),
    await startNode('mirror2', { addPeers: [source.address] }),
  ];
  await waitUntil('the mirrors hold the chain', () => converged(source, ...mirrors), 600_000);
  return [source, ...mirrors];
}

/** Blocks per second a fresh node (RocksDB) takes to sync the chain from `peers`. */
async function syncRate(peers: TestNode[]): Promise<{ impl: string; rate: number }> {
  const fresh = await startNode('fresh', {
    store: 'rocksdb',
    dataDir: mkdtempSync(join(tmpdir(), 'umbra-bench-p2p-')),
  });
  const start = process.hrtime.bigint();
  await Promise.all(peers.map((peer) => fresh.p2p.connect(peer.address)));
  await waitUntil('the fresh node has synced', () => converged(peers[0]!, fresh), 600_000);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  await fresh.app.stop();
  return { impl: fresh.app.container.cradle.core.impl, rate: Math.round(SYNC_BLOCKS / seconds) };
}

// Encrypted (the real transport, from one peer and from three), then the same sync without encryption. The two
// alternate over three rounds and each keeps its median, so that the machine's drift hits both alike.
const noise: number[] = [];
const threePeers: number[] = [];
const plain: number[] = [];
let impl = '';
for (let round = 0; round < ROUNDS; round++) {
  let nodes = await sources();
  const encrypted = await syncRate([nodes[0]!]);
  impl = encrypted.impl;
  noise.push(encrypted.rate);
  threePeers.push((await syncRate(nodes)).rate);
  await Promise.all(nodes.map((node) => node.app.stop()));
  process.env.UMBRA_P2P_PLAINTEXT = '1';
  nodes = await sources();
  plain.push((await syncRate([nodes[0]!])).rate);
  await Promise.all(nodes.map((node) => node.app.stop()));
  delete process.env.UMBRA_P2P_PLAINTEXT;
}
const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
rows.push({ case: 'sync-blocks', impl, unit: 'blocks/s', value: median(noise) });
rows.push({ case: 'sync-blocks-3peers', impl, unit: 'blocks/s', value: median(threePeers) });
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
