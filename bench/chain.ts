/**
 * Chain throughput on RocksDB: blocks validated and applied per second (empty blocks; and the state side of blocks
 * writing 100 balances), and state reads at a historical version per second.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCore } from '../core-native/ts/index.js';
import { RocksDbStore } from '../host/storage/rocksdb-store.js';
import { StateDb } from '../plugins/consensus/state/state-db.js';
import { mineBlock, openTestChain } from '../test/helpers/chain.js';
import { runBench, type BenchRow } from './harness.js';

const BLOCKS = 300;
const core = await loadCore();
const rows: BenchRow[] = [];

// Empty blocks: mined on one chain, then validated and applied by a fresh chain on RocksDB.
const source = await openTestChain({ core });
for (let i = 0; i < BLOCKS; i++) await mineBlock(source);
const blobs = Array.from(
  { length: BLOCKS },
  (_, i) => source.chain.blocks.getBlockBytes(source.chain.metaAtTopo(BigInt(i + 1))!.id)!,
);
const target = await openTestChain({
  core,
  store: await RocksDbStore.open(mkdtempSync(join(tmpdir(), 'umbra-bench-chain-'))),
});
target.clock.now = source.clock.now;
let start = process.hrtime.bigint();
for (const blob of blobs) await target.chain.addBlock(blob);
let seconds = Number(process.hrtime.bigint() - start) / 1e9;
rows.push({ case: 'apply-empty-block', impl: core.impl, unit: 'blocks/s', value: Math.round(BLOCKS / seconds) });

// The state side of a block writing 100 balances, on a state of 10 000 accounts.
const store = await RocksDbStore.open(mkdtempSync(join(tmpdir(), 'umbra-bench-state-')));
const db = new StateDb(store, (data) => core.blake2s256(data));
const tree = new TextEncoder().encode('B');
const keyOf = (i: number): Uint8Array => core.keccak256(new Uint8Array(new Uint32Array([i]).buffer)).slice(0, 33);
let version: bigint | null = null;
for (let chunk = 0; chunk < 10; chunk++) {
  const state = db.writable(version);
  for (let i = 0; i < 1000; i++) state.tree(tree).put(keyOf(chunk * 1000 + i), new Uint8Array(67).fill(chunk));
  const batch = store.batch();
  version = state.commit(batch).version;
  await batch.write();
}
const firstVersion = version!;
const COMMITS = 200;
start = process.hrtime.bigint();
for (let c = 0; c < COMMITS; c++) {
  const state = db.writable(version);
  for (let i = 0; i < 100; i++) state.tree(tree).put(keyOf((c * 100 + i) % 10_000), new Uint8Array(67).fill(c & 0xff));
  const batch = store.batch();
  version = state.commit(batch).version;
  await batch.write();
}
seconds = Number(process.hrtime.bigint() - start) / 1e9;
rows.push({ case: 'apply-block-100-writes', impl: core.impl, unit: 'blocks/s', value: Math.round(COMMITS / seconds) });

// Reads at an old version (the state before those 200 commits), from a cold node cache.
const cold = new StateDb(store, (data) => core.blake2s256(data)).snapshot(firstVersion).tree(tree);
const READS = 20_000;
start = process.hrtime.bigint();
for (let i = 0; i < READS; i++) if (!cold.get(keyOf((i * 7919) % 10_000))) throw new Error('missing key');
seconds = Number(process.hrtime.bigint() - start) / 1e9;
rows.push({ case: 'state-read-historical', impl: core.impl, unit: 'reads/s', value: Math.round(READS / seconds) });

runBench('chain', rows);
