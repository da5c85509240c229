/**
 * A real `umbra simulator` for the wallet CLI's end-to-end tests, with a temporary HOME and a password file, and
 * wallet files restored through the CLI (`umbra wallet restore`) from secret keys.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { secretKeyToMnemonic } from '../../protocol/mnemonic.js';
import { runCli, startCli } from './cli.js';

export interface WalletSimulator {
  /** The temporary directory: HOME of every CLI run, and where the wallet files go. */
  dir: string;
  env: NodeJS.ProcessEnv;
  passwordFile: string;
  /** The simulator daemon's JSON-RPC URL. */
  daemonUrl: string;
  /** Restores `<dir>/<name>.wallet` for `secret` through the CLI; its path. */
  restore(name: string, secret: Uint8Array): Promise<string>;
}

/** Starts a simulator with `wallets` funded wallets (RPC on free ports) and `extra` flags, stopped when `t` ends. */
export async function startWalletSimulator(
  t: Test,
  prefix: string,
  wallets: number,
  ...extra: string[]
): Promise<WalletSimulator> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env = { HOME: dir };
  const passwordFile = join(dir, 'password');
  writeFileSync(passwordFile, 'pw\n');
  const sim = startCli(
    ['simulator', '--wallets', String(wallets), '--rpc-bind', '127.0.0.1:0', '--wallet-rpc-port-base', '0', ...extra],
    env,
  );
  t.teardown(() => sim.child.kill('SIGKILL'));
  const [, daemonUrl] = await sim.waitFor(/^daemon RPC +(http:\/\/127\.0\.0\.1:\d+)\/json_rpc$/m, 60_000);
  await sim.waitFor(/simulator ready/, 90_000);
  return {
    dir,
    env,
    passwordFile,
    daemonUrl: daemonUrl!,
    async restore(name, secret) {
      const file = join(dir, `${name}.wallet`);
      const words = join(dir, `${name}.words`);
      writeFileSync(words, secretKeyToMnemonic(secret));
      const args = ['--wallet-file', file, '--password-file', passwordFile, '--mnemonic-file', words];
      const run = await runCli(['wallet', 'restore', ...args, '--network', 'simulator'], undefined, 60_000, env);
      if (run.code !== 0) throw new Error(run.stderr);
      return file;
    },
  };
}
