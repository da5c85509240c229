/**
 * `wallet web` (and `wallet open --web`): serves the open wallet in the browser (the `web-wallet` plugin) on
 * 127.0.0.1:10104 unless `--web-bind` says otherwise, and prints the URL with its one-time token; syncing and
 * registering go on in the background until SIGINT/SIGTERM. Binding beyond loopback requires `--web-login`. A wallet
 * file that does not exist yet is created or restored in the page first (`wallet web` only). The daemons chosen on
 * the page's settings are used unless `--daemon-address` / `--send-daemon` name others.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { loadCore } from '../../core-native/ts/index.js';
import { composeApp, type App } from '../../host/app.js';
import { loadConfig } from '../../host/config/load.js';
import { parseBindAddress, type UmbraConfig } from '../../host/config/schema.js';
import { runUntilSignalled } from '../../host/lifecycle.js';
import { readKeptSettings } from '../../plugins/web-wallet/kept-settings.js';
import type { WalletSetup, WebWalletSettings } from '../../plugins/web-wallet/settings.js';
import { mnemonicToSecretKey } from '../../protocol/mnemonic.js';
import type { NetworkName } from '../../protocol/network.js';
import { WalletFile } from '../../wallet/wallet-file.js';
import { keyContents, walletKeys } from '../../wallet/wallet-keys.js';
import type { WalletService, WalletServiceOptions } from '../../wallet/wallet-service.js';
import { CliError, CliErrorCode } from '../cli-error.js';
import { flaggedNetwork, openWalletFile, serviceOptionsOf, type SessionFlags } from './session.js';
import { backgroundWallet, runWalletProcess } from './wallet-process.js';

/** Serves the wallet file the flags name, or, when it does not exist yet and `setup` allows, the page that makes it. */
export async function serveWeb(flags: SessionFlags & WebFlags, setup: boolean): Promise<void> {
  const settings = webSettings(flags, flags.walletFile);
  if (setup && !existsSync(flags.walletFile)) return serveWebWalletSetup(flags, settings);
  const file = await openWalletFile(flags);
  await serveWebWallet(await serviceOptionsOf(file, withKeptDaemons(flags, file)), settings, flags);
}

/** The flags, with the daemons chosen on the web wallet's settings page where no flag names one. */
function withKeptDaemons<Flags extends SessionFlags>(flags: Flags, file: WalletFile): Flags {
  const kept = readKeptSettings(file.contents);
  return {
    ...flags,
    daemonAddress: flags.daemonAddress ?? kept.daemon,
    sendDaemon: flags.sendDaemon ?? kept.sendDaemon,
  };
}

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
    walletName: basename(walletFile),
  };
}

/** The app that serves the web wallet: `services` give it the wallet, or the setup that makes one. */
async function composeWebApp(
  network: NetworkName,
  settings: WebWalletSettings,
  flags: WebFlags,
  services: { wallet?: WalletService; setup?: WalletSetup },
): Promise<App> {
  // Loaded here only: the other wallet commands never need the compiler.
  const { compileContract } = await import('../../plugins/dvm/compiler.js');
  const config = loadConfig({
    flags: {
      network,
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
    // Web apps' requests are asked about on the terminal too, while it is one (the page may not be open).
    ...(process.stdin.isTTY ? { terminal: { input: process.stdin, output: process.stderr } } : {}),
    ...(services.setup ? { setup: services.setup } : {}),
    listening: (url) => {
      const reach = settings.login ? ' (it asks for the --web-login user and password)' : '';
      const first = services.setup ? ' to create or restore the wallet' : '';
      process.stdout.write(`Web wallet: open ${url}${reach}${first}\nThe link works once; press Ctrl-C to stop.\n`);
    },
  };
  return composeApp(config, { services: { ...(services.wallet ? { wallet: services.wallet } : {}), webWallet } });
}

/** Serves the wallet file the flags name in the browser, until a signal. */
export function serveWebWallet(options: WalletServiceOptions, settings: WebWalletSettings, flags: WebFlags) {
  return runWalletProcess(options, (wallet) => composeWebApp(options.keys.network, settings, flags, { wallet }));
}

/**
 * For a wallet file that does not exist yet: the page creates it (fresh words, or restored ones) with a password
 * chosen there, then serves it; syncing and registering start once it exists.
 */
export async function serveWebWalletSetup(
  flags: Omit<SessionFlags, 'passwordFile'> & WebFlags,
  settings: WebWalletSettings,
): Promise<void> {
  const network = flaggedNetwork(flags) ?? 'mainnet';
  let app: App | undefined;
  let opened: WalletService | undefined;
  const setup: WalletSetup = {
    network,
    async create(mnemonic, password) {
      const core = await loadCore({ impl: flags.crypto });
      const keys = walletKeys(core, network, mnemonicToSecretKey(mnemonic));
      const file = await WalletFile.create(flags.walletFile, password, keyContents(keys));
      const { wallet, begin } = backgroundWallet(await serviceOptionsOf(file, flags), () => app?.logger);
      app?.logger.info(`wallet file ${flags.walletFile} created`);
      begin();
      opened = wallet;
      return wallet;
    },
  };
  app = await composeWebApp(network, settings, flags, { setup });
  try {
    await runUntilSignalled(app);
  } finally {
    opened?.close();
  }
}
