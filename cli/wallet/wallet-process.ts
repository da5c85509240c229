/**
 * A wallet process that serves an open wallet until SIGINT/SIGTERM (`wallet open --rpc-server`, `wallet web`): the
 * wallet registers its account and syncs in the background, reporting to the app's log, while the app the caller
 * composes serves it.
 */
import { describeRegistrationStep } from '../../wallet/account-registration.js';
import { isDaemonUnreachable } from '../../wallet/daemon-reachability.js';
import { WalletService, type WalletServiceOptions } from '../../wallet/wallet-service.js';
import type { App } from '../../host/app.js';
import { runUntilSignalled } from '../../host/lifecycle.js';
import type { Logger } from '../../host/logger.js';

export interface BackgroundWallet {
  wallet: WalletService;
  /** Says which wallet is served, then registers the account (when new) and syncs every 5 s, in the background. */
  begin(): void;
}

/** The wallet of `options`, its notes going to `log()` (the app's logger, once there is one). */
export function backgroundWallet(options: WalletServiceOptions, log: () => Logger | undefined): BackgroundWallet {
  const { keys, daemon } = options;
  let registrationWaitsForDaemon = false;
  const register = (): void => {
    registrationWaitsForDaemon = false;
    wallet.registration.ensure().then(
      () => log()?.info('the account is registered on chain'),
      (error: unknown) => {
        // An unreachable daemon is reported once by the sync; the registration runs again when it comes back.
        if (isDaemonUnreachable(error)) registrationWaitsForDaemon = true;
        else log()?.warn(`the account's registration failed (a transfer retries): ${(error as Error).message}`);
      },
    );
  };
  const wallet = new WalletService({
    ...options,
    registrationProgress: (step) => log()?.info(describeRegistrationStep(step)),
    daemonReachability: (change) => {
      if (!change.reachable) return log()?.warn(`${change.reason}; the wallet retries every 5 s`);
      log()?.info(`the daemon at ${daemon.url} answers again`);
      if (registrationWaitsForDaemon) register();
    },
  });
  const begin = (): void => {
    log()?.info(`Umbra wallet ${keys.address} on ${keys.network}; daemon ${daemon.url}`);
    // Start-up step: a new account registers now (in the background) rather than on its first transfer.
    register();
    // The history sync: now, then every 5 s (GetTransfers and GetBalance also sync before they answer).
    wallet.startSync(5000, (error: unknown) => log()?.debug(`history sync: ${(error as Error).message}`));
  };
  return { wallet, begin };
}

export async function runWalletProcess(
  options: WalletServiceOptions,
  compose: (wallet: WalletService) => Promise<App>,
): Promise<void> {
  let app: App | undefined;
  const { wallet, begin } = backgroundWallet(options, () => app?.logger);
  app = await compose(wallet);
  begin();
  try {
    await runUntilSignalled(app);
  } finally {
    wallet.close();
  }
}
