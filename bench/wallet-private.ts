/**
 * What a wallet that trusts no daemon pays (issue: a private, trustless wallet), on the sync bench's chain (10 000
 * blocks, 100 000 accounts: bench/lib/sync-chain.ts, served by a node in this process) with a wallet holding the keys
 * of an account that received a transfer there. Each wallet runs in a process of its own (bench/lib/wallet-run.ts),
 * made and opened as the command line makes it (a restored file, proven reads with a light client whose header file
 * sits beside it):
 * - `trusted-sync-10000-blocks`, `private-sync-10000-blocks`: seconds for a fresh wallet (no header file) to sync to
 *   the top with --trusted-daemon and in the default private mode (target: private ≤ 3× trusted);
 * - `private-bytes-per-block`: the bytes of the daemon's answers the private sync downloaded, per block of the chain
 *   it synced (target ≤ 65 536);
 * - `first-balance-after-restore`: milliseconds from `wallet restore` to the first proven balance in private mode
 *   (target ≤ 10 000);
 * - `header-pow-verify`: milliseconds per miniblock header the light client checks on testnet rules — every rule, the
 *   proof of work hashed natively on every core — synced from a daemon in this process (median of ROUNDS syncs of a
 *   fresh light client over the same POW_BLOCKS blocks).
 * Each wallet run prints its calls by method and the time spent waiting for their answers, as a profile of where
 * the time and the bytes go.
 *
 * Developer knobs (environment), the sync bench's: BENCH_SYNC_BLOCKS and BENCH_SYNC_ACCOUNTS for smaller chains, and
 * BENCH_SYNC_SOURCE_DIR to build the chain once and reuse it (bench/lib/sync-source.ts).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../core-native/ts/index.js';
import { PowCheckPool } from '../core-native/ts/pow-check-pool.js';
import { fromHex } from '../protocol/bytes.js';
import { MINIBLOCKS_PER_BLOCK } from '../protocol/miniblock.js';
import { secretKeyToMnemonic } from '../protocol/mnemonic.js';
import { LightClient } from '../wallet/light-client/light-client.js';
import { mineBlock, openTestChain } from '../test/helpers/chain.js';
import { headerDaemon, servedChain } from '../test/helpers/header-daemon.js';
import { rpcUrl } from '../test/helpers/p2p.js';
import { runBench, type BenchRow } from './harness.js';
import { sourceWithChain } from './lib/sync-source.js';
import type { WalletRunJob, WalletRunResult } from './lib/wallet-run.js';

const CHAIN_BLOCKS = Number(process.env.BENCH_SYNC_BLOCKS ?? 10_000);
const ACCOUNTS = Number(process.env.BENCH_SYNC_ACCOUNTS ?? 100_000);
const POW_BLOCKS = 8;
const ROUNDS = 5;

const rows: BenchRow[] = [];
/** Keeps a row and prints it at once (a long run shows its figures as they come). */
const record = (row: BenchRow): void => {
  console.log(`${row.case} ${row.impl}: ${row.value} ${row.unit}`);
  rows.push(row);
};

/** One wallet run in a process of its own (bench/lib/wallet-run.ts), its profile printed. */
async function walletRun(job: Omit<WalletRunJob, 'dir'>): Promise<WalletRunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'umbra-bench-wallet-private-'));
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('./lib/wallet-run.js', import.meta.url)), JSON.stringify({ ...job, dir })],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    output += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    output += text;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  rmSync(dir, { recursive: true, force: true });
  const answer = /^\{"seconds":.*\}$/m.exec(output);
  if (code !== 0 || !answer)
    throw new Error(`the ${job.mode} wallet's ${job.measure} failed (exit ${code}): ${output}`);
  const result = JSON.parse(answer[0]) as WalletRunResult;
  const calls = Object.entries(result.calls)
    .sort(([, a], [, b]) => b - a)
    .map(([method, count]) => `${method} ${count} (${((result.waits[method] ?? 0) / 1000).toFixed(1)} s waited)`)
    .join(', ');
  console.log(
    `${job.mode} ${job.measure}: ${result.seconds.toFixed(2)} s to height ${result.height}, ` +
      `${result.bytes} bytes in ${result.requests} requests (${calls})`,
  );
  return result;
}

/** Milliseconds per miniblock a fresh light client takes to check a testnet chain's headers (median of ROUNDS). */
async function headerPowVerifyMs(): Promise<number> {
  const core = await loadCore({ impl: 'native' });
  const chain = await openTestChain({ network: 'testnet', core });
  for (let i = 0; i < POW_BLOCKS; i++) await mineBlock(chain);
  const daemon = await headerDaemon((bytes) => core.sha3_256(bytes));
  daemon.serve(servedChain(chain));
  const pool = new PowCheckPool({ impl: 'native' });
  const dir = mkdtempSync(join(tmpdir(), 'umbra-bench-wallet-private-'));
  const perMiniblock: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const client = LightClient.open({ core, network: 'testnet', path: join(dir, `${round}.headers`), pool });
      const started = performance.now();
      await client.sync(daemon.client);
      perMiniblock.push((performance.now() - started) / (POW_BLOCKS * MINIBLOCKS_PER_BLOCK));
    }
  } finally {
    await pool.close();
    await daemon.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return [...perMiniblock].sort((x, y) => x - y)[Math.floor(ROUNDS / 2)]!;
}

const { source, chain } = await sourceWithChain({
  blocks: CHAIN_BLOCKS,
  accounts: ACCOUNTS,
  sourceDir: process.env.BENCH_SYNC_SOURCE_DIR,
  nodeFlags: { transports: ['http'] },
});
try {
  // transacting holds each transfer's sender and receiver: the receiver of the first.
  const account = chain.transacting[1];
  if (!account)
    throw new Error(
      `a chain of ${CHAIN_BLOCKS} blocks and ${ACCOUNTS} accounts holds no transfer: ask for more of both`,
    );
  const wallet = { daemon: rpcUrl(source), mnemonic: secretKeyToMnemonic(fromHex(account.secretKey)) };
  const impl = source.app.container.cradle.core.impl;
  const trusted = await walletRun({ ...wallet, mode: 'trusted', measure: 'sync' });
  record({ case: `trusted-sync-${CHAIN_BLOCKS}-blocks`, impl, unit: 's', value: trusted.seconds });
  const hidden = await walletRun({ ...wallet, mode: 'private', measure: 'sync' });
  record({ case: `private-sync-${CHAIN_BLOCKS}-blocks`, impl, unit: 's', value: hidden.seconds });
  console.log(`private / trusted: ${(hidden.seconds / trusted.seconds).toFixed(2)} (target ≤ 3)`);
  record({ case: 'private-bytes-per-block', impl, unit: 'bytes', value: hidden.bytes / hidden.height });
  const restored = await walletRun({ ...wallet, mode: 'private', measure: 'first-balance' });
  record({ case: 'first-balance-after-restore', impl, unit: 'ms', value: restored.seconds * 1000 });
} finally {
  await source.app.stop();
}
record({ case: 'header-pow-verify', impl: 'native', unit: 'ms', value: await headerPowVerifyMs() });
runBench('wallet-private', rows);
