/**
 * `wallet web` (and `wallet open --web`): serves the open wallet in the browser (the `web-wallet` plugin) on
 * 127.0.0.1:10104 unless `--web-bind` says otherwise, and prints the URL with its one-time token; syncing and
 * registering go on in the background until SIGINT/SIGTERM. Binding beyond loopback requires `--web-login`.
 */
import { composeApp } from '../../host/app.js';
import { loadConfig } from '../../host/config/load.js';
import { parseBindAddress, type UmbraConfig } from '../../host/config/schema.js';
import type { WebWalletSettings } from '../../plugins/web-wallet/settings.js';
import { WalletFile } from '../../wallet/wallet-file.js';
import type { WalletServiceOptions } from '../../wallet/wallet-service.js';
import { CliError, CliErrorCode } from '../cli-error.js';
import { runWalletProcess } from './wallet-process.js';

/** The web wallet's port unless `--web-bind` names another. */
export const DEFAULT_WEB_PORT = 10104;
const DEFAULT_LOCK_MINUTES = 10;

export interface WebFlags {
  webBind?: string;
  webLogin?: string;
  lockMinutes?: string;
  crypto?: UmbraConfig['crypto'];
  logLevel?: UmbraConfig['logLevel'];
}

const isLoopback = (host: string): boolean => /^127\./.test(host) || host === '::1' || host === 'localhost';

/** The settings the flags ask for, checked: a reachable bind needs a login, a login is `user:pass`. */
export function webSettings(flags: WebFlags, walletFile: string): WebWalletSettings {
  let bind: { host: string; port: number };
  try {
    bind = parseBindAddress(flags.webBind ?? `127.0.0.1:${DEFAULT_WEB_PORT}`);
  } catch (error) {
    throw new CliError(CliErrorCode.BadArgument, `--web-bind ${(error as Error).message}`);
  }
  if (flags.webLogin !== undefined && !/^[^:]+:.+$/.test(flags.webLogin))
    throw new CliError(CliErrorCode.BadArgument, '--web-login must be user:pass');
  if (!isLoopback(bind.host) && flags.webLogin === undefined)
    throw new CliError(
      CliErrorCode.BadArgument,
      `--web-bind ${bind.host} is reachable from other machines: add --web-login user:pass to require a login`,
    );
  const lockMinutes = Number(flags.lockMinutes ?? DEFAULT_LOCK_MINUTES);
  if (!Number.isInteger(lockMinutes) || lockMinutes < 1 || lockMinutes > 1440)
    throw new CliError(CliErrorCode.BadArgument, '--lock-minutes must be a whole number from 1 to 1440');
  return {
    ...bind,
    ...(flags.webLogin ? { login: flags.webLogin } : {}),
    lockMinutes,
    checkPassword: async (password) => void (await WalletFile.open(walletFile, password)),
  };
}

export async function serveWebWallet(options: WalletServiceOptions, settings: WebWalletSettings, flags: WebFlags) {
  // Loaded here only: the other wallet commands never need the compiler.
  const { compileContract } = await import('../../plugins/dvm/compiler.js');
  const config = loadConfig({
    flags: {
      network: options.keys.network,
      plugins: ['web-wallet'],
      transports: [],
      store: 'memory',
      crypto: flags.crypto,
      logLevel: flags.logLevel,
    },
  });
  const webWallet: WebWalletSettings = {
    ...settings,
    compileContract,
    listening: (url) => {
      const reach = settings.login ? ' (it asks for the --web-login user and password)' : '';
      process.stdout.write(`Web wallet: open ${url}${reach}\nThe link works once; press Ctrl-C to stop.\n`);
    },
  };
  return runWalletProcess(options, (wallet) => composeApp(config, { services: { wallet, webWallet } }));
}
