/**
 * A process app that serves one open wallet's JSON-RPC (the `wallet` plugin on the HTTP and WebSocket transports), with
 * its `/metrics` and `/health` (the `metrics` plugin).
 */
import { composeApp, type App } from '../host/app.js';
import { WALLET_RPC_SERVER } from '../host/rpc/servers.js';
import { loadConfig } from '../host/config/load.js';
import type { UmbraConfig } from '../host/config/schema.js';
import type { Logger } from '../host/logger.js';
import type { WalletService } from '../wallet/wallet-service.js';

export interface WalletAppOptions {
  rpcBind: string;
  rpcLogin?: string;
  crypto?: UmbraConfig['crypto'];
  logLevel?: UmbraConfig['logLevel'];
  logger?: Logger;
}

export function composeWalletApp(wallet: WalletService, options: WalletAppOptions): Promise<App> {
  const config = loadConfig({
    flags: {
      network: wallet.keys.network,
      plugins: ['wallet', 'metrics'],
      // The wallet keeps its state in its file; the process's key-value store is unused.
      store: 'memory',
      rpcBind: options.rpcBind,
      rpcLogin: options.rpcLogin,
      crypto: options.crypto,
      logLevel: options.logLevel,
    },
  });
  return composeApp(config, {
    rpcServer: WALLET_RPC_SERVER,
    services: { wallet },
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
