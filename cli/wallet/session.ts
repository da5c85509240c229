/**
 * An open wallet, as every wallet command works on it: the flags that name the wallet file, its password, its network
 * and its daemon are read once here, and the commands (balance, send, …) are functions of the session they get —
 * the command line opens one per run, a shell can open one and keep it.
 */
import { UmbraError } from '../../core-native/ts/errors.js';
import { loadCore } from '../../core-native/ts/index.js';
import { describeRegistrationStep } from '../../wallet/account-registration.js';
import { DaemonClient } from '../../wallet/daemon-client.js';
import { WalletFile, WalletFileErrorCode } from '../../wallet/wallet-file.js';
import { keysFromContents } from '../../wallet/wallet-keys.js';
import { WalletService, type WalletServiceOptions } from '../../wallet/wallet-service.js';
import { defaultCacheDir } from '../../host/config/defaults.js';
import type { UmbraConfig } from '../../host/config/schema.js';
import { NETWORKS, type NetworkName } from '../../protocol/network.js';
import { CliError, CliErrorCode } from '../cli-error.js';
import { flagsToConfig } from '../daemon-command.js';
import { reachingDaemon } from '../daemon-offline.js';
import { promptSecret, readSecretFile } from '../secret-input.js';
import { provenAccess, type PrivacyFlags } from './privacy-mode.js';
import { syncProgressBar } from './sync-progress-bar.js';

/** The flags every wallet command takes. */
export interface SessionFlags extends PrivacyFlags {
  walletFile: string;
  passwordFile?: string;
  network?: NetworkName;
  testnet?: boolean;
  crypto?: UmbraConfig['crypto'];
  daemonAddress?: string;
  cacheDir?: string;
  json?: boolean;
}

export interface WalletSession {
  readonly wallet: WalletService;
  readonly walletFile: string;
  /** Where notes for the person go (progress, registration steps): stderr, never stdout. */
  note(line: string): void;
}

/** The network the flags name (--network or --testnet), if any. */
export const flaggedNetwork = ({
  network,
  testnet,
}: Pick<SessionFlags, 'network' | 'testnet'>): NetworkName | undefined =>
  flagsToConfig({ network, testnet }).network as NetworkName | undefined;

/** How often a person at the terminal may type a wrong password (or, for a new wallet, two that differ). */
const PASSWORD_TRIES = 3;

/** A failed try said on the terminal, with the tries left. */
const tryAgain = (problem: string, tried: number): void =>
  void process.stderr.write(
    `${problem}; try again (${PASSWORD_TRIES - tried} ${PASSWORD_TRIES - tried === 1 ? 'try' : 'tries'} left)\n`,
  );

/** A new wallet's password: from --password-file, or typed twice — asked again when the two differ. */
export async function readNewPassword(flags: Pick<SessionFlags, 'passwordFile'>): Promise<string> {
  if (flags.passwordFile) return readSecretFile(flags.passwordFile, 'password');
  for (let tried = 1; ; tried++) {
    const password = await promptSecret('Wallet password', '--password-file');
    if ((await promptSecret('Repeat the password', '--password-file')) === password) return password;
    if (tried === PASSWORD_TRIES)
      throw new CliError(CliErrorCode.PasswordMismatch, `the two passwords differ (${PASSWORD_TRIES} tries)`);
    tryAgain('the two passwords differ', tried);
  }
}

/** Opens the wallet file with the password from --password-file, or typed — asked again when it is wrong. */
export async function openWalletFile(flags: Pick<SessionFlags, 'walletFile' | 'passwordFile'>): Promise<WalletFile> {
  if (flags.passwordFile) return WalletFile.open(flags.walletFile, readSecretFile(flags.passwordFile, 'password'));
  for (let tried = 1; ; tried++) {
    try {
      return await WalletFile.open(flags.walletFile, await promptSecret('Wallet password', '--password-file'));
    } catch (error) {
      if (!UmbraError.is(error, WalletFileErrorCode.BadPassword) || tried === PASSWORD_TRIES) throw error;
      tryAgain((error as Error).message, tried);
    }
  }
}

/** What a WalletService needs for the wallet file the flags name (its password read, its network checked). */
export async function walletServiceOptions(flags: SessionFlags): Promise<WalletServiceOptions> {
  return serviceOptionsOf(await openWalletFile(flags), flags);
}

/** What a WalletService needs for an open wallet `file`, with the daemon and cache the flags name. */
export async function serviceOptionsOf(
  file: WalletFile,
  flags: Omit<SessionFlags, 'passwordFile'>,
): Promise<WalletServiceOptions> {
  const core = await loadCore({ impl: flags.crypto });
  const keys = keysFromContents(core, file.contents);
  const wanted = flaggedNetwork(flags);
  if (wanted && wanted !== keys.network)
    throw new CliError(CliErrorCode.WrongNetwork, `${flags.walletFile} is a ${keys.network} wallet, not ${wanted}`);
  const daemon = new DaemonClient(flags.daemonAddress ?? `127.0.0.1:${NETWORKS[keys.network].defaultRpcPort}`);
  const saved = (file.contents as { history?: { access?: unknown } }).history?.access;
  const sendDaemon = flags.sendDaemon === undefined ? undefined : new DaemonClient(flags.sendDaemon);
  return {
    core,
    keys,
    daemon,
    ...(sendDaemon && { sendDaemon }),
    access: provenAccess(flags, { core, keys, daemon, sendDaemon, walletFile: flags.walletFile, saved }),
    balanceTableDir: flags.cacheDir ?? defaultCacheDir(),
    file,
    syncProgress: syncProgressBar(),
  };
}

/** Opens the wallet the flags name; registration steps (a new wallet's first send) are noted on stderr. */
export async function openSession(flags: SessionFlags): Promise<WalletSession> {
  const note = (line: string): void => void process.stderr.write(`${line}\n`);
  const wallet = new WalletService({
    ...(await walletServiceOptions(flags)),
    registrationProgress: (step) => note(describeRegistrationStep(step)),
  });
  return { wallet, walletFile: flags.walletFile, note };
}

/** Brings the history up to date (and saves it); a daemon that cannot be reached is a clear failure. */
export async function syncHistory(session: WalletSession): Promise<void> {
  await reachingDaemon(() => session.wallet.sync());
}
