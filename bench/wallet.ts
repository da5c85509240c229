/**
 * The wallet's `transfer` RPC latency (ms, median) for rings of 2, 16 and 128, against `umbra simulator` in a child
 * process: ring selection, balance reads, the proof, submission. Target: ring 16 under 350 ms (the reference wallet:
 * 730 ms). 130 extra accounts are registered first so that a ring of 128 can be filled.
 *
 * `sync-1000-blocks` (ms): 1,000 blocks are mined to the premine key (SIMULATOR.Mine), then a fresh in-process
 * wallet of that key (balance table loaded beforehand) syncs its history from genesis: every block changes its
 * balance (a coinbase entry each), the worst case for finding the changes.
 * `sync-10000-blocks` (s): then 9 rounds of a transfer to the premine key and 1,000 more blocks; a fresh wallet of
 * the key syncs the ≈ 10,000 blocks from genesis (the transfers and the rings it was a decoy in spread over them).
 * Target ≤ 5 s. Mining them takes a few minutes and is not measured.
 *
 * `register-new-wallet` (ms, median of 5): a new wallet file (fresh keys, scrypt) to its account registered on the
 * simulator, which mines at once when a transaction waits. Target ≤ 1000 ms.
 * `registration-pow-testnet` (ms, median of 15): a registration ground to testnet's proof of work. Target ≤ 500 ms.
 * `registration-pow-testnet-worker` (ms, median of 15): the same as the wallet runs it, in a worker thread (its
 * start-up included), while the event loop stays free.
 */
import { loadCore } from '../core-native/ts/index.js';
import { premineSecret } from '../protocol/premine.js';
import { DaemonClient } from '../wallet/daemon-client.js';
import { walletKeys } from '../wallet/wallet-keys.js';
import { WalletService } from '../wallet/wallet-service.js';
import { defaultCacheDir } from '../host/config/defaults.js';
import { toHex } from '../protocol/bytes.js';
import { makeRegistration } from '../protocol/registration.js';
import { CHAIN_PARAMS } from '../protocol/chain-params.js';
import { NETWORKS } from '../protocol/network.js';
import { bigintToBytes32BE } from '../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../core-native/ts/scalar.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeRegistration } from '../wallet/registration-pow.js';
import { WalletFile } from '../wallet/wallet-file.js';
import { keyContents } from '../wallet/wallet-keys.js';
import { encodeTransaction } from '../protocol/transaction.js';
import { rpcCall, startSimulator } from './lib/simulator.js';
import { runBench, type BenchRow } from './harness.js';

const core = await loadCore();
const simulator = await startSimulator(/simulator ready/);
const daemon = /daemon RPC (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/.exec(simulator.output())![1]!;
const [sender, receiver] = [
  ...simulator.output().matchAll(/wallet \d+: (\S+) (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/g),
].map((m) => ({ address: m[1]!, url: m[2]! }));

const mined = async (): Promise<void> => {
  while ((await rpcCall(daemon, 'NODE.GetTxPool')).txs.length > 0)
    await new Promise((resolve) => setTimeout(resolve, 10));
};

const median = (values: number[]): number => Math.round(values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!);

/** ms of each of `runs` runs of `work`. */
async function timed(runs: number, work: (run: number) => Promise<unknown> | unknown): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await work(run);
    times.push(performance.now() - start);
  }
  return times;
}

/** A fresh in-process wallet of the premine key (balance table loaded beforehand) syncing from genesis: its ms. */
async function premineSync(): Promise<{ ms: number; wallet: WalletService }> {
  const wallet = new WalletService({
    core,
    keys: walletKeys(core, 'simulator', premineSecret(core, 'simulator')),
    daemon: new DaemonClient(daemon),
    balanceTableDir: defaultCacheDir(),
  });
  await wallet.balance();
  const start = performance.now();
  await wallet.sync();
  return { ms: performance.now() - start, wallet };
}

const rows: BenchRow[] = [];
try {
  const { G } = core.generators('UMBRA');
  for (let i = 0; i < 130; i++) {
    const secret = core.keccak256(new TextEncoder().encode(`bench decoy ${i}`));
    await rpcCall(daemon, 'NODE.SendRawTransaction', {
      tx_as_hex: toHex(encodeTransaction(makeRegistration(core, G, secret, 0))),
    });
  }
  await mined();
  for (const ring of [2, 16, 128]) {
    const times: number[] = [];
    for (let i = 0; i < (ring === 128 ? 3 : 5); i++) {
      const start = performance.now();
      await rpcCall(sender!.url, 'transfer', {
        transfers: [{ destination: receiver!.address, amount: 1000 }],
        ringsize: ring,
      });
      times.push(performance.now() - start);
      await mined();
    }
    rows.push({ case: `transfer-ring-${ring}`, impl: core.impl, unit: 'ms', value: median(times) });
  }
  const walletDir = mkdtempSync(join(tmpdir(), 'umbra-bench-wallet-'));
  const registrations = await timed(5, async (run) => {
    const keys = walletKeys(core, 'simulator', bigintToBytes32BE(randomScalar()));
    await WalletFile.create(join(walletDir, `new-${run}.wallet`), 'a password', keyContents(keys));
    const wallet = new WalletService({
      core,
      keys,
      daemon: new DaemonClient(daemon),
      balanceTableDir: defaultCacheDir(),
    });
    await wallet.registration.ensure();
  });
  rmSync(walletDir, { recursive: true });
  rows.push({ case: 'register-new-wallet', impl: core.impl, unit: 'ms', value: median(registrations) });
  const testnetG = core.generators(NETWORKS.testnet.generatorDomain).G;
  const pow = await timed(15, () =>
    makeRegistration(core, testnetG, bigintToBytes32BE(randomScalar()), CHAIN_PARAMS.testnet.registrationPowBits),
  );
  rows.push({ case: 'registration-pow-testnet', impl: core.impl, unit: 'ms', value: median(pow) });
  const powInWorker = await timed(15, () =>
    computeRegistration(core, testnetG, bigintToBytes32BE(randomScalar()), CHAIN_PARAMS.testnet.registrationPowBits),
  );
  rows.push({ case: 'registration-pow-testnet-worker', impl: core.impl, unit: 'ms', value: median(powInWorker) });
  for (let i = 0; i < 10; i++) await rpcCall(daemon, 'SIMULATOR.Mine', { blocks: 100 });
  const { ms: elapsed, wallet } = await premineSync();
  const blocks = (await rpcCall(daemon, 'NODE.GetInfo')).topoheight;
  const coinbase = wallet.history.entries('0'.repeat(64)).filter((e) => e.coinbase).length;
  rows.push({ case: 'sync-1000-blocks', impl: core.impl, unit: 'ms', value: Math.round(elapsed) });
  console.log(`sync-1000-blocks: ${blocks} blocks, ${coinbase} coinbase entries`);
  const premineAddress = walletKeys(core, 'simulator', premineSecret(core, 'simulator')).address;
  for (let round = 0; round < 9; round++) {
    await rpcCall(sender!.url, 'transfer', {
      transfers: [{ destination: premineAddress, amount: 1000 }],
      ringsize: 16,
    });
    await mined();
    for (let i = 0; i < 10; i++) await rpcCall(daemon, 'SIMULATOR.Mine', { blocks: 100 });
  }
  const long = await premineSync();
  const longElapsed = long.ms / 1000;
  const entries = long.wallet.history.entries('0'.repeat(64));
  rows.push({ case: 'sync-10000-blocks', impl: core.impl, unit: 's', value: Math.round(longElapsed * 100) / 100 });
  console.log(
    `sync-10000-blocks: ${(await rpcCall(daemon, 'NODE.GetInfo')).topoheight} blocks, ` +
      `${entries.filter((e) => e.coinbase).length} coinbase and ${entries.filter((e) => !e.coinbase).length} other entries`,
  );
} finally {
  simulator.child.kill('SIGINT');
}
runBench('wallet', rows);
console.log(
  'targets: transfer-ring-16 under 350 ms, register-new-wallet ≤ 1000 ms, registration-pow-testnet ≤ 500 ms, sync-10000-blocks ≤ 5 s',
);
