/**
 * What the main thread allocates for a transfer (issue 37's allocation figure), measured with V8's sampling heap
 * profiler counting every object, those the collector has freed too: a chain on RocksDB with 3 000 registered
 * accounts and a pool of two verification workers, as a daemon runs it, admits 300 ring-16 transfers through the
 * pool's batches (`alloc-per-admitted-transfer`), then builds a template of them and adds the block mined from it
 * (`alloc-per-block-transfer`). KiB per transfer; the sites that allocate most are printed. Each transfer's
 * sender-parity ring members are its own, so that one block takes them all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCore } from '../core-native/ts/index.js';
import { VerifyPool } from '../core-native/ts/proof/verify-pool.js';
import { openStore } from '../host/storage/open-store.js';
import { encodeTransaction } from '../protocol/transaction.js';
import { mineBlock, openTestChain } from '../test/helpers/chain.js';
import { buildTestTransfer, registeredAccounts, type Account } from '../test/helpers/transfers.js';
import { runBench, type BenchRow } from './harness.js';

const TRANSFERS = 300;
const RING = 16;
const SHARED_DECOYS = 600;
const SAMPLE_BYTES = 4096;

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

const dataDir = mkdtempSync(join(tmpdir(), 'umbra-bench-allocation-'));
const core = await loadCore({ impl: 'native' });
const store = await openStore({ store: 'rocksdb', dataDir });
const verifyPool = new VerifyPool({ impl: 'native', size: 2 });
const chain = await openTestChain({ core, store, verifyPool });
const session = new Session();
session.connect();

/** Bytes `run` allocates on this thread (objects freed meanwhile included), and the sites that allocated most. */
async function allocated(run: () => Promise<void>): Promise<{ bytes: number; sites: [string, number][] }> {
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: SAMPLE_BYTES,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await run();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
    profile: { head: SamplingNode };
  };
  const bySite = new Map<string, number>();
  let bytes = 0;
  // Built-ins (slice, Buffer.from …) are charged to the nearest caller of ours, which is what can change.
  const walk = (node: SamplingNode, owner: string): void => {
    bytes += node.selfSize;
    const { functionName, url, lineNumber } = node.callFrame;
    const ours = url.includes('/dist/') && !url.includes('node_modules');
    const site = ours ? `${functionName || '(anonymous)'} ${url.replace(/^.*\/dist\//, '')}:${lineNumber + 1}` : owner;
    if (node.selfSize > 0) bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child, site);
  };
  walk(profile.head, '(outside our code)');
  return { bytes, sites: [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 12) };
}

try {
  const accounts: Account[] = [];
  for (let i = 0; i < (TRANSFERS * RING) / 2 + SHARED_DECOYS; i += 1000)
    accounts.push(...(await registeredAccounts(chain, 1000)));
  const shared = accounts.slice(0, SHARED_DECOYS);
  const transfers = Array.from({ length: TRANSFERS }, (_, i) => {
    const own = accounts.slice(SHARED_DECOYS + (i * RING) / 2, SHARED_DECOYS + ((i + 1) * RING) / 2);
    const receiver = shared[i % SHARED_DECOYS]!;
    // The ring is sender, receiver, then the decoys in turn: even places are the transfer's own accounts.
    const decoys = own.slice(1).flatMap((mine, k) => [mine.key, shared[(i + 1 + k) % SHARED_DECOYS]!.key]);
    return encodeTransaction(buildTestTransfer(chain, own[0]!, receiver.key, 0n, { ringSize: RING, decoys }).tx);
  });
  // A first round on other transfers would warm the code paths; the sampled round is the first on these bytes.
  const admission = await allocated(async () => {
    await Promise.all(transfers.map((bytes) => chain.pool.addBatched(bytes)));
  });
  if (chain.pool.size !== TRANSFERS) throw new Error(`the pool took ${chain.pool.size} of ${TRANSFERS} transfers`);
  const block = await allocated(async () => {
    await mineBlock(chain);
  });
  if (chain.chain.top.txCount !== TRANSFERS) throw new Error(`the block took ${chain.chain.top.txCount} transfers`);
  const rows: BenchRow[] = [
    { case: 'alloc-per-admitted-transfer', impl: 'native', unit: 'KiB', value: admission.bytes / TRANSFERS / 1024 },
    { case: 'alloc-per-block-transfer', impl: 'native', unit: 'KiB', value: block.bytes / TRANSFERS / 1024 },
  ].map((row) => ({ ...row, value: Math.round(row.value) }));
  for (const [what, result] of [
    ['admission', admission],
    ['template and block', block],
  ] as const) {
    console.log(`${what}: the sites that allocated most (KiB per transfer)`);
    for (const [site, bytes] of result.sites)
      console.log(`  ${(bytes / TRANSFERS / 1024).toFixed(1).padStart(6)}  ${site}`);
  }
  runBench('allocation', rows);
} finally {
  session.disconnect();
  await verifyPool.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
