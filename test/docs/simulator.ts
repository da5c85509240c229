/** A real `bin/umbra simulator` for the docs tests, on free ports, with the documented ports mapped onto them. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpcCall } from '../helpers/app.js';
import { startCli, type RunningCli } from '../helpers/cli.js';

/** The simulator's default daemon RPC port and its wallets' first port, as the docs write them. */
const DAEMON_PORT = 20000;
const FIRST_WALLET_PORT = 30000;

export interface DocsSimulator {
  cli: RunningCli;
  daemonUrl: string;
  /** The real base URL for a documented port (20000 the daemon, 30000 + i wallet i). */
  baseUrl(port: number): string;
  /** Waits until the pool is empty: the simulator has mined what the last example sent, as a reader would wait. */
  settled(): Promise<void>;
}

/** Starts the simulator with `wallets` wallets; `extraArgs` are more of its flags (`--noautomine`). */
export async function startDocsSimulator(wallets: number, extraArgs: string[] = []): Promise<DocsSimulator> {
  const home = mkdtempSync(join(tmpdir(), 'umbra-docs-home-'));
  const cli = startCli(
    [
      'simulator',
      '--wallets',
      String(wallets),
      '--rpc-bind',
      '127.0.0.1:0',
      '--wallet-rpc-port-base',
      '0',
      ...extraArgs,
    ],
    { HOME: home },
  );
  const [, daemonUrl] = await cli.waitFor(/daemon RPC (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/, 90_000);
  await cli.waitFor(/simulator ready/, 90_000);
  const walletUrls = [...cli.log().matchAll(/wallet \d+: \S+ (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/g)].map(
    (m) => m[1]!,
  );
  const baseUrl = (port: number): string => {
    const url = port === DAEMON_PORT ? daemonUrl : walletUrls[port - FIRST_WALLET_PORT];
    if (!url)
      throw new Error(`the docs' port ${port} is neither the simulator daemon's nor one of its ${wallets} wallets'`);
    return url;
  };
  const settled = async (): Promise<void> => {
    while ((await rpcCall(daemonUrl!, 'NODE.GetTxPool')).txs.length > 0)
      await new Promise((resolve) => setTimeout(resolve, 20));
  };
  return { cli, daemonUrl: daemonUrl!, baseUrl, settled };
}
