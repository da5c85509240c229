/**
 * The node serving the sync bench's chain (bench/lib/sync-chain.ts), shared by the benchmarks that read that chain
 * (bench/sync.ts, bench/wallet-private.ts): built in a temporary directory for one run, or — with a source directory
 * (BENCH_SYNC_SOURCE_DIR) — built there once and reused by every later run that asks for the same size.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNode, type TestNode } from '../../test/helpers/p2p.js';
import { buildSyncChain, type SyncChain } from './sync-chain.js';

/** Bumped when chain.json's description changes, so that a kept chain described the old way is rebuilt. */
const DESCRIPTION_VERSION = 2;

export interface SyncSourceOptions {
  blocks: number;
  accounts: number;
  /** The directory the chain is kept in across runs; a fresh temporary one for this run when undefined. */
  sourceDir: string | undefined;
  /** More flags for the source node (e.g. its RPC transports). */
  nodeFlags?: Record<string, unknown>;
}

/** A RocksDB data directory of its own under the system's temporary directory. */
export const freshRocksdb = (name: string) => ({
  store: 'rocksdb',
  dataDir: mkdtempSync(join(tmpdir(), `umbra-bench-sync-${name}-`)),
});

/** The source node holding the chain of the asked size: built now, or reused from `sourceDir` when it holds one. */
export async function sourceWithChain({
  blocks,
  accounts,
  sourceDir,
  nodeFlags = {},
}: SyncSourceOptions): Promise<{ source: TestNode; chain: SyncChain }> {
  if (!sourceDir) {
    const source = await startNode('source', { ...freshRocksdb('source'), ...nodeFlags });
    const chain = await buildSyncChain(source, blocks, accounts);
    // The build's garbage (its keys, transactions and proofs) is not the serving node's: collected before measuring.
    (globalThis as { gc?: () => void }).gc?.();
    return { source, chain };
  }
  const dataDir = join(sourceDir, 'node');
  const described = join(sourceDir, 'chain.json');
  const size = { version: DESCRIPTION_VERSION, blocks, accounts };
  if (existsSync(described)) {
    const kept = JSON.parse(readFileSync(described, 'utf8')) as typeof size & { chain: SyncChain };
    const source = await startNode('source', { store: 'rocksdb', dataDir, ...nodeFlags });
    if (
      kept.version === size.version &&
      kept.blocks === size.blocks &&
      kept.accounts === size.accounts &&
      source.chain.top.height === BigInt(size.blocks)
    ) {
      console.log(`source: reusing the chain in ${sourceDir}`);
      return { source, chain: kept.chain };
    }
    await source.app.stop();
  }
  rmSync(sourceDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const source = await startNode('source', { store: 'rocksdb', dataDir, ...nodeFlags });
  const chain = await buildSyncChain(source, blocks, accounts);
  writeFileSync(described, JSON.stringify({ ...size, chain }));
  return { source, chain };
}
