/**
 * One wallet run of bench/wallet-private.ts, in a process of its own (so that the daemon's work and heap are not the
 * wallet's), started with one JSON argument (WalletRunJob). The wallet is made and opened the way the command line
 * does it (`wallet restore` writes the file; the session's options build the proven reads, their header file beside
 * the wallet file), then either synced to the top (`sync`) or asked its balance (`first-balance`). Prints one JSON
 * line (WalletRunResult): the seconds measured and what the wallet downloaded meanwhile — the bytes of the daemon's
 * answers, and the calls made and the time spent waiting for them, by method — counted by a proxy in front of the
 * daemon (counting-proxy.ts), through which every daemon call goes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWallet } from '../../cli/wallet/create.js';
import { walletServiceOptions, type SessionFlags } from '../../cli/wallet/session.js';
import { mnemonicToSecretKey } from '../../protocol/mnemonic.js';
import { WalletService } from '../../wallet/wallet-service.js';
import { startCountingProxy } from './counting-proxy.js';

export interface WalletRunJob {
  /** The daemon's RPC address. */
  daemon: string;
  mnemonic: string;
  mode: 'private' | 'trusted';
  /** `sync`: a fresh wallet's first sync to the top; `first-balance`: from the restore to the first balance. */
  measure: 'sync' | 'first-balance';
  /** An empty directory for the wallet file, its header chain and the balance table. */
  dir: string;
}

export interface WalletRunResult {
  seconds: number;
  /** The topoheight the wallet's chain reached. */
  height: number;
  /** Bytes of the daemon's answers (response bodies). */
  bytes: number;
  /** HTTP requests posted (a JSON-RPC batch is one). */
  requests: number;
  /** JSON-RPC calls, by method. */
  calls: Record<string, number>;
  /** Milliseconds spent waiting for answers, by method (requests in flight together each count their own wait). */
  waits: Record<string, number>;
}

const job = JSON.parse(process.argv[2] ?? '') as WalletRunJob;
// Every daemon call crosses this proxy, which counts what comes back.
const proxy = await startCountingProxy(job.daemon.startsWith('http') ? job.daemon : `http://${job.daemon}`);
const { traffic } = proxy;

mkdirSync(job.dir, { recursive: true });
const passwordFile = join(job.dir, 'password');
writeFileSync(passwordFile, 'bench password\n');
const flags: SessionFlags = {
  walletFile: join(job.dir, 'bench.wallet'),
  passwordFile,
  network: 'simulator',
  daemonAddress: proxy.url,
  cacheDir: join(job.dir, 'cache'),
  ...(job.mode === 'trusted' ? { trustedDaemon: true } : {}),
};
const quiet = { write: () => {} };

let started = performance.now();
await createWallet(flags, mnemonicToSecretKey(job.mnemonic), quiet, false);
const wallet = new WalletService(await walletServiceOptions(flags));
if (job.measure === 'sync') {
  // The restore and the file's key derivation are not the sync's.
  started = performance.now();
  await wallet.sync();
} else await wallet.balance();
const seconds = (performance.now() - started) / 1000;
const measured = { ...traffic };
const result: WalletRunResult = { seconds, height: await wallet.height(), ...measured };
wallet.close();
await proxy.close();
console.log(JSON.stringify(result));
