/**
 * `wallet open --rpc-server`: serves the wallet JSON-RPC (the `wallet` plugin on the rpc-http/rpc-ws transports),
 * registering the account and syncing in the background, until SIGINT/SIGTERM.
 */
import { describeRegistrationStep } from '../../wallet/account-registration.js';
import { isDaemonUnreachable } from '../../wallet/daemon-reachability.js';
import { WalletService, type WalletServiceOptions } from '../../wallet/wallet-service.js';
import type { UmbraConfig } from '../../host/config/schema.js';
import { runUntilSignalled } from '../../host/lifecycle.js';
import type { Logger } from '../../host/logger.js';
import { NETWORKS } from '../../protocol/network.js';
import { composeWalletApp } from '../wallet-app.js';

export interface RpcServerFlags {
  rpcBind?: string;
  rpcLogin?: string;
  crypto?: UmbraConfig['crypto'];
  logLevel?: UmbraConfig['logLevel'];
}

export async function serveWallet(options: WalletServiceOptions, flags: RpcServerFlags): Promise<void> {
  const { keys, daemon } = options;
  const params = NETWORKS[keys.network];
  // The logger exists once the app does; the wallet reports to it through this indirection.
  let log: Logger | undefined;
  let registrationWaitsForDaemon = false;
  const register = (): void => {
    registrationWaitsForDaemon = false;
    wallet.registration.ensure().then(
      () => log?.info('the account is registered on chain'),
      (error: unknown) => {
        // An unreachable daemon is reported once by the sync; the registration runs again when it comes back.
        if (isDaemonUnreachable(error)) registrationWaitsForDaemon = true;
        else log?.warn(`the account's registration failed (a transfer retries): ${(error as Error).message}`);
      },
    );
  };
  const wallet = new WalletService({
    ...options,
    registrationProgress: (step) => log?.info(describeRegistrationStep(step)),
    daemonReachability: (change) => {
      if (!change.reachable) return log?.warn(`${change.reason}; the wallet retries every 5 s`);
      log?.info(`the daemon at ${daemon.url} answers again`);
      if (registrationWaitsForDaemon) register();
    },
  });

  const app = await composeWalletApp(wallet, {
    rpcBind: flags.rpcBind ?? `127.0.0.1:${params.defaultWalletRpcPort}`,
    rpcLogin: flags.rpcLogin,
    crypto: flags.crypto,
    logLevel: flags.logLevel,
  });
  log = app.logger;
  app.logger.info(`Umbra wallet ${keys.address} on ${keys.network}; daemon ${daemon.url}`);
  // Start-up step: a new account registers now (in the background) rather than on its first transfer.
  register();
  // The history sync: now, then every 5 s (GetTransfers and GetBalance also sync before they answer).
  wallet.startSync(5000, (error: unknown) => app.logger.debug(`history sync: ${(error as Error).message}`));
  try {
    await runUntilSignalled(app);
  } finally {
    wallet.close();
  }
}
