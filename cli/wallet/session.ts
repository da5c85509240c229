/**
 * An open wallet, as every wallet command works on it: the flags that name the wallet file, its password, its network
 * and its daemon are read once here, and the commands (balance, send, …) are functions of the session they get —
 * the command line opens one per run, a shell can open one and keep it.
 */
import { loadCore } from '../../core-native/ts/index.js';
import { describeRegistrationStep } from '../../wallet/account-registration.js';
import { DaemonClient } from '../../wallet/daemon-client.js';
import { WalletFile } from '../../wallet/wallet-file.js';
import { keysFromContents } from '../../wallet/wallet-keys.js';
import { WalletService, type WalletServiceOptions } from '../../wallet/wallet-service.js';
import { defaultCacheDir } from '../../host/config/defaults.js';
import type { UmbraConfig } from '../../host/config/schema.js';
import { NETWORKS, type NetworkName } from '../../protocol/network.js';
import { CliError, CliErrorCode } from '../cli-error.js';
import { flagsToConfig } from '../daemon-command.js';
import { reachingDaemon } from '../daemon-offline.js';
import { promptSecret, readSecretFile } from '../secret-input.js';
import { syncProgressBar } from './sync-progress-bar.js';

/** The flags every wallet command takes. */
export interface SessionFlags {
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

/** The wallet password, from --password-file or typed (twice when `confirm`, for a new wallet). */
export async function readPassword(flags: Pick<SessionFlags, 'passwordFile'>, confirm: boolean): Promise<string> {
  if (flags.passwordFile) return readSecretFile(flags.passwordFile, 'password');
  const password = await promptSecret('Wallet password', '--password-file');
  if (confirm && (await promptSecret('Repeat the password', '--password-file')) !== password)
    throw new CliError(CliErrorCode.PasswordMismatch, 'the two passwords differ');
  return password;
}

/** What a WalletService needs for the wallet file the flags name (its password read, its network checked). */
export async function walletServiceOptions(flags: SessionFlags): Promise<WalletServiceOptions> {
  const password = await readPassword(flags, false);
  const file = await WalletFile.open(flags.walletFile, password);
  const core = await loadCore({ impl: flags.crypto });
  const keys = keysFromContents(core, file.contents);
  const wanted = flaggedNetwork(flags);
  if (wanted && wanted !== keys.network)
    throw new CliError(CliErrorCode.WrongNetwork, `${flags.walletFile} is a ${keys.network} wallet, not ${wanted}`);
  return {
    core,
    keys,
    daemon: new DaemonClient(flags.daemonAddress ?? `127.0.0.1:${NETWORKS[keys.network].defaultRpcPort}`),
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
