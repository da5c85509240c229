/**
 * Joining a chain (issue: verified state-snapshot sync): a source node builds, once and outside the measured time, a
 * chain of CHAIN_BLOCKS blocks registering ACCOUNTS accounts, with transfers and contract transactions spread over it
 * (bench/lib/sync-chain.ts); then a fresh node (RocksDB, in a process of its own as a joining node is:
 * bench/lib/sync-node.ts) reaches the source's top by replaying every block
 * (`full-sync`, --full-sync), by a fast sync from one peer (`fast-sync`) and from three (`fast-sync-3peers`: the
 * source and two mirrors that fast-synced from it); `snapshot-chunk-verify` is the time to verify one chunk of the
 * source's balance trie (µs per chunk); and `disk-per-block` is the database growth per block of transfers on the
 * source (archive) and on a node that fast-synced from it and prunes (bench/lib/disk-per-block.ts).
 *
 * Developer knobs (environment):
 * - BENCH_SYNC_BLOCKS and BENCH_SYNC_ACCOUNTS set other sizes than the 10 000 blocks and 100 000 accounts.
 * - BENCH_SYNC_CASES: a comma-separated subset of `full,fast,fast3,verify,disk` (full-sync, fast-sync,
 *   fast-sync-3peers, snapshot-chunk-verify, disk-per-block) to run; all by default.
 * - BENCH_SYNC_SOURCE_DIR: the source's data directory, kept across runs: the chain is built there once and reused
 *   while it holds a chain of the asked size (by default every run builds a fresh chain in a temporary directory).
 *   The `disk` case mines more blocks on the source, so a run with it leaves a chain the next run rebuilds.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { trieName } from '../protocol/state/trie-names.js';
import { CHUNK_LIMITS } from '../plugins/consensus/snapshots.js';
import { proveRange } from '../plugins/consensus/state/range-proof.js';
import { verifyRange, WHOLE_TRIE, type KeyRange } from '../protocol/state/range-check.js';
import { StateDb } from '../plugins/consensus/state/state-db.js';
import { converged, startNode, topOf, waitUntil, type TestNode } from '../test/helpers/p2p.js';
import { runBench, timeIt, type BenchRow } from './harness.js';
import { diskPerBlockRows, PRUNE_DEPTH } from './lib/disk-per-block.js';
import { freshRocksdb, sourceWithChain } from './lib/sync-source.js';
import type { SyncNodeJob } from './lib/sync-node.js';

const CHAIN_BLOCKS = Number(process.env.BENCH_SYNC_BLOCKS ?? 10_000);
const ACCOUNTS = Number(process.env.BENCH_SYNC_ACCOUNTS ?? 100_000);
const SYNC_TIMEOUT_MS = 3_600_000;
const CASES = new Set((process.env.BENCH_SYNC_CASES ?? 'full,fast,fast3,verify,disk').split(','));
const SOURCE_DIR = process.env.BENCH_SYNC_SOURCE_DIR;
const rows: BenchRow[] = [];
/** Keeps a row and prints it at once (a long run shows its figures as they come). */
const record = (row: BenchRow): void => {
  console.log(`${row.case} ${row.impl}: ${row.value} ${row.unit}`);
  rows.push(row);
};

/**
 * Seconds a fresh node (RocksDB, in a process of its own: bench/lib/sync-node.ts) takes to reach the top of
 * `peers[0]`, syncing from `peers`.
 */
async function syncSeconds(peers: TestNode[], flags: Record<string, unknown>): Promise<number> {
  const job: SyncNodeJob = {
    dataDir: freshRocksdb('fresh').dataDir,
    flags,
    peers: peers.map((peer) => peer.address),
    top: topOf(peers[0]!),
    timeoutMs: SYNC_TIMEOUT_MS,
  };
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('./lib/sync-node.js', import.meta.url)), JSON.stringify(job)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    output += text;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  const answer = /^\{"seconds":.*\}$/m.exec(output);
  if (code !== 0 || !answer) throw new Error(`the syncing node failed (exit ${code}): ${output}`);
  return (JSON.parse(answer[0]) as { seconds: number }).seconds;
}

/** Microseconds to verify one chunk of the native balance trie at the source's top, over every chunk of it. */
function chunkVerifyMicros(source: TestNode): number {
  const { store, core } = source.app.container.cradle;
  const db = new StateDb(
    store,
    (data) => core.blake2s256(data),
    (data, ends) => core.blake2s256Many(data, ends),
  );
  const root = db.snapshot(source.chain.top.stateVersion).treeRoot(trieName('B', new Uint8Array(32)));
  const chunks: { range: KeyRange; chunk: ReturnType<typeof proveRange> }[] = [];
  const queue: KeyRange[] = [WHOLE_TRIE];
  while (queue.length > 0) {
    const range = queue.shift()!;
    const chunk = proveRange(db.persisted, root, range, CHUNK_LIMITS);
    chunks.push({ range, chunk });
    queue.push(...verifyRange(db.hasher, root, range, chunk, db.hashMany).halves.map((half) => half.range));
  }
  const leafChunks = chunks.filter(({ chunk }) => !chunk.split);
  console.log(`balance trie: ${leafChunks.length} chunks of leaves, ${chunks.length - leafChunks.length} splits`);
  let next = 0;
  return timeIt(() => {
    const { range, chunk } = leafChunks[next++ % leafChunks.length]!;
    verifyRange(db.hasher, root, range, chunk, db.hashMany);
  });
}

const { source, chain } = await sourceWithChain({ blocks: CHAIN_BLOCKS, accounts: ACCOUNTS, sourceDir: SOURCE_DIR });
const impl = source.app.container.cradle.core.impl;
let full: number | undefined;
if (CASES.has('full')) {
  full = await syncSeconds([source], { fullSync: true });
  record({ case: 'full-sync', impl, unit: 's', value: full });
}
if (CASES.has('fast')) {
  const fast = await syncSeconds([source], {});
  record({ case: 'fast-sync', impl, unit: 's', value: fast });
  if (full !== undefined) console.log(`fast / full: ${(fast / full).toFixed(3)} (target ≤ 0.1)`);
}
if (CASES.has('fast3')) {
  const mirrors = [
    await startNode('mirror1', { ...freshRocksdb('mirror1'), addPeers: [source.address] }),
    await startNode('mirror2', { ...freshRocksdb('mirror2'), addPeers: [source.address] }),
  ];
  await waitUntil('the mirrors hold the chain', () => converged(source, ...mirrors), SYNC_TIMEOUT_MS);
  record({ case: 'fast-sync-3peers', impl, unit: 's', value: await syncSeconds([source, ...mirrors], {}) });
  await Promise.all(mirrors.map((node) => node.app.stop()));
}
if (CASES.has('verify')) record({ case: 'snapshot-chunk-verify', impl, unit: 'µs', value: chunkVerifyMicros(source) });
if (CASES.has('disk')) {
  // A node of its own: one pruning while the sync cases run would take their time.
  const pruned = await startNode('pruned', {
    ...freshRocksdb('pruned'),
    addPeers: [source.address],
    pruneDepth: PRUNE_DEPTH,
  });
  for (const row of await diskPerBlockRows(source, pruned, chain.untouched)) record(row);
  await pruned.app.stop();
}
await source.app.stop();
runBench('sync', rows);
