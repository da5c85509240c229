/** Serves a WalletService over a real wallet RPC server (HTTP and WebSocket on a free loopback port) for a test. */
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import type { Core } from '../../core-native/ts/core.js';
import { composeApp } from '../../host/app.js';
import { WALLET_RPC_SERVER } from '../../host/rpc/servers.js';
import { loadConfig } from '../../host/config/load.js';
import { createLogger } from '../../host/logger.js';
import type { NetworkName } from '../../protocol/network.js';
import { DaemonClient } from '../../wallet/daemon-client.js';
import type { TransferEntryJson } from '../../plugins/wallet/rpc/transfer-entry-json.js';
import { mineOneViaRpc, postRpc, rpcCall } from './app.js';
import { walletKeys } from '../../wallet/wallet-keys.js';
import { WalletService, type WalletServiceOptions } from '../../wallet/wallet-service.js';

/** Shared by test runs so that the balance table is built once per machine, not once per test. */
export const TEST_BALANCE_TABLE_DIR = join(tmpdir(), 'umbra-test-balance-tables');

/** A wallet against `daemonUrl`; it polls for its registration every 20 ms (tests mine at once). */
export function testWallet(
  core: Core,
  network: NetworkName,
  secretKey: Uint8Array,
  daemonUrl: string,
  more: Partial<WalletServiceOptions> = {},
): WalletService {
  return new WalletService({
    core,
    keys: walletKeys(core, network, secretKey),
    daemon: new DaemonClient(daemonUrl),
    balanceTableDir: TEST_BALANCE_TABLE_DIR,
    registrationTiming: { pollMs: 20, timeoutMs: 30_000 },
    ...more,
  });
}

let nextId = 1;
/** A wallet JSON-RPC call; its result, or an error named after the method. */
export async function walletRpc(url: string, method: string, params?: unknown): Promise<any> {
  const { json } = await postRpc(url, {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    ...(params === undefined ? {} : { params }),
  });
  if (json.error) throw new Error(`${method}: ${json.error.message}`);
  return json.result;
}

/** A transfer entry as read from an answer: its uint64s are numbers up to 2^53 (and bigints beyond, which tests say). */
export type AnsweredEntry = Omit<
  TransferEntryJson,
  'minerreward' | 'amount' | 'burn' | 'fees' | 'dstport' | 'srcport'
> & {
  minerreward: number;
  amount: number;
  burn?: number;
  fees: number;
  dstport: number;
  srcport: number;
};

/** GetTransfers' entries for `filters` (none: an empty list). */
export const transfersOf = async (url: string, filters: Record<string, unknown>): Promise<AnsweredEntry[]> =>
  (await walletRpc(url, 'GetTransfers', filters)).entries ?? [];

/** Waits until the daemon's pool is empty (autoMine has mined what was sent). */
export async function mined(daemonUrl: string): Promise<void> {
  while ((await rpcCall(daemonUrl, 'NODE.GetTxPool')).txs.length > 0)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * Mines a block through `daemonUrl` whenever its pool holds a transaction (as the reference simulator does), until
 * the test ends; `paused` holds it back.
 */
export function autoMine(t: Test, daemonUrl: string, minerAddress: string): { paused: boolean } {
  const control = { paused: false };
  let running = true;
  const loop = (async () => {
    while (running) {
      if (!control.paused && (await rpcCall(daemonUrl, 'NODE.GetTxPool')).txs.length > 0)
        await mineOneViaRpc(daemonUrl, minerAddress);
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })().catch((error: unknown) => {
    // The daemon may stop first when the test ends.
    if (running) throw error;
  });
  t.teardown(async () => {
    running = false;
    await loop;
  });
  return control;
}

/** Starts a wallet RPC server for `wallet`; returns its base URL (e.g. http://127.0.0.1:43121). */
export async function startWalletApp(
  t: Test,
  wallet: WalletService,
  flags: Record<string, unknown> = {},
): Promise<string> {
  const config = loadConfig({
    flags: { network: wallet.keys.network, store: 'memory', plugins: ['wallet'], rpcBind: '127.0.0.1:0', ...flags },
  });
  const app = await composeApp(config, {
    logger: createLogger('error', () => {}),
    rpcServer: WALLET_RPC_SERVER,
    services: { wallet },
  });
  await app.start();
  t.teardown(() => app.stop());
  const server = app.container.cradle.httpServers.get('wallet');
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}
