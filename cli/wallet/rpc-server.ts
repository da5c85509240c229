/**
 * `wallet open --rpc-server`: serves the wallet JSON-RPC (the `wallet` plugin on the rpc-http/rpc-ws transports),
 * registering the account and syncing in the background, until SIGINT/SIGTERM.
 */
import type { WalletServiceOptions } from '../../wallet/wallet-service.js';
import type { UmbraConfig } from '../../host/config/schema.js';
import { NETWORKS } from '../../protocol/network.js';
import { composeWalletApp } from '../wallet-app.js';
import { runWalletProcess } from './wallet-process.js';

export interface RpcServerFlags {
  rpcBind?: string;
  rpcLogin?: string;
  crypto?: UmbraConfig['crypto'];
  logLevel?: UmbraConfig['logLevel'];
}

export function serveWallet(options: WalletServiceOptions, flags: RpcServerFlags): Promise<void> {
  const params = NETWORKS[options.keys.network];
  return runWalletProcess(options, (wallet) =>
    composeWalletApp(wallet, {
      rpcBind: flags.rpcBind ?? `127.0.0.1:${params.defaultWalletRpcPort}`,
      rpcLogin: flags.rpcLogin,
      crypto: flags.crypto,
      logLevel: flags.logLevel,
    }),
  );
}
