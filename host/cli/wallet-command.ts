/**
 * `umbra wallet`: the wallet's command line, the front end of the `wallet` plugin.
 *   wallet create  --wallet-file F   a new wallet file with fresh keys; prints the address and, once, the 24 words
 *   wallet restore --wallet-file F   a wallet file for existing seed words (--mnemonic-file, or typed)
 *   wallet open    --wallet-file F   shows address, height and balance; with --rpc-server serves the wallet JSON-RPC
 *                                    (the `wallet` plugin on the rpc-http/rpc-ws transports) until SIGINT/SIGTERM
 * Passwords come from --password-file or are typed at the terminal without echo.
 */
import { Command, Option } from 'commander';
import { loadCore } from '../../core-native/ts/index.js';
import { DaemonClient } from '../../wallet/daemon-client.js';
import { WalletError } from '../../wallet/wallet-error.js';
import { WalletFile } from '../../wallet/wallet-file.js';
import { keyContents, keysFromContents, walletKeys, type WalletKeys } from '../../wallet/wallet-keys.js';
import { composeWalletApp } from './wallet-app.js';
import { WalletService, type WalletServiceOptions } from '../../wallet/wallet-service.js';
import { describeRegistrationStep } from '../../wallet/account-registration.js';
import { isDaemonUnreachable } from '../../wallet/daemon-reachability.js';
import type { Logger } from '../logger.js';
import { terminalSyncProgress } from '../../wallet/sync-progress.js';
import { defaultCacheDir } from '../config/defaults.js';
import { CRYPTO_IMPLS, LOG_LEVELS, type UmbraConfig } from '../config/schema.js';
import { runUntilSignalled } from '../lifecycle.js';
import { ATOMIC_UNITS_PER_COIN as COIN } from '../protocol/chain-params.js';
import { mnemonicToSecretKey, newMnemonic } from '../protocol/mnemonic.js';
import { NETWORK_NAMES, NETWORKS, type NetworkName } from '../protocol/network.js';
import { flagsToConfig } from './daemon-command.js';
import { promptSecret, readSecretFile } from './secret-input.js';

export interface WalletCommandIo {
  /** Where results go (default: process.stdout). */
  write(text: string): void;
}

interface WalletFlags {
  walletFile: string;
  passwordFile?: string;
  network?: NetworkName;
  testnet?: boolean;
  crypto?: UmbraConfig['crypto'];
  json?: boolean;
  mnemonicFile?: string;
  daemonAddress?: string;
  rpcServer?: boolean;
  rpcBind?: string;
  rpcLogin?: string;
  logLevel?: UmbraConfig['logLevel'];
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
const table = (rows: [string, string][]): string => {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}\n`).join('');
};
const coins = (atomic: bigint): string => `${atomic / COIN}.${(atomic % COIN).toString().padStart(5, '0')}`;

/** The network the flags name (--network or --testnet), if any. */
const flaggedNetwork = ({ network, testnet }: WalletFlags): NetworkName | undefined =>
  flagsToConfig({ network, testnet }).network as NetworkName | undefined;

async function readPassword(flags: WalletFlags, confirm: boolean): Promise<string> {
  if (flags.passwordFile) return readSecretFile(flags.passwordFile, 'password');
  const password = await promptSecret('Wallet password', '--password-file');
  if (confirm && (await promptSecret('Repeat the password', '--password-file')) !== password)
    throw new Error('the two passwords differ');
  return password;
}

/** Writes a new wallet file for `secretKey` and prints what the user must know about it. */
async function createWallet(
  flags: WalletFlags,
  secretKey: Uint8Array,
  io: WalletCommandIo,
  showMnemonic: boolean,
): Promise<void> {
  const network = flaggedNetwork(flags) ?? 'mainnet';
  const password = await readPassword(flags, true);
  const keys = walletKeys(await loadCore({ impl: flags.crypto }), network, secretKey);
  await WalletFile.create(flags.walletFile, password, keyContents(keys));
  const result = {
    wallet_file: flags.walletFile,
    network,
    address: keys.address,
    ...(showMnemonic ? { mnemonic: keys.mnemonic } : {}),
  };
  if (flags.json) return io.write(json(result));
  const rows: [string, string][] = [
    ['wallet file', result.wallet_file],
    ['network', network],
    ['address', keys.address],
  ];
  if (!showMnemonic) return io.write(table(rows));
  io.write(
    table([...rows, ['mnemonic', keys.mnemonic]]) +
      'Write the 24 words down and keep them private: they restore the wallet, and anyone who has them controls the funds.\n',
  );
}

/** Address, height and balance of an open wallet, asked of its daemon. */
async function printSummary(wallet: WalletService, flags: WalletFlags, io: WalletCommandIo): Promise<void> {
  let balance: bigint | string;
  try {
    balance = await wallet.balance();
  } catch (error) {
    if (!(error instanceof WalletError)) throw error;
    balance = error.message;
  }
  const height = await wallet.height();
  const { network, address } = wallet.keys;
  if (flags.json)
    return io.write(
      json({
        wallet_file: flags.walletFile,
        network,
        address,
        daemon: wallet.daemon.url,
        height,
        balance: typeof balance === 'bigint' ? Number(balance) : null,
        error: typeof balance === 'string' ? balance : undefined,
      }),
    );
  io.write(
    table([
      ['wallet file', flags.walletFile],
      ['network', network],
      ['address', address],
      ['daemon', wallet.daemon.url],
      ['height', String(height)],
      ['balance', typeof balance === 'bigint' ? `${coins(balance)} (${balance} atomic units)` : balance],
    ]),
  );
}

async function openWallet(flags: WalletFlags, io: WalletCommandIo): Promise<void> {
  if (!flags.rpcServer && (flags.rpcBind || flags.rpcLogin))
    throw new Error('--rpc-bind and --rpc-login configure the wallet RPC server: add --rpc-server');
  const password = await readPassword(flags, false);
  const file = await WalletFile.open(flags.walletFile, password);
  const core = await loadCore({ impl: flags.crypto });
  const keys: WalletKeys = keysFromContents(core, file.contents);
  const wanted = flaggedNetwork(flags);
  if (wanted && wanted !== keys.network)
    throw new Error(`${flags.walletFile} is a ${keys.network} wallet, not ${wanted}`);
  const options: WalletServiceOptions = {
    core,
    keys,
    daemon: new DaemonClient(flags.daemonAddress ?? `127.0.0.1:${NETWORKS[keys.network].defaultRpcPort}`),
    balanceTableDir: defaultCacheDir(),
    file,
    syncProgress: terminalSyncProgress(),
  };
  if (!flags.rpcServer) {
    const wallet = new WalletService(options);
    // The history is brought up to date (and saved) on every open. A daemon that cannot be reached fails the command
    // (there is nothing to show); other sync failures leave the history as it was and the summary says what it can.
    await wallet.sync().catch((error: unknown) => {
      if (isDaemonUnreachable(error))
        throw new Error(`${(error as Error).message}; start the daemon, or name it with --daemon-address`);
    });
    return printSummary(wallet, flags, io);
  }
  return serveWallet(options, flags);
}

/** `wallet open --rpc-server`: serves the wallet JSON-RPC, registering the account and syncing in the background. */
async function serveWallet(options: WalletServiceOptions, flags: WalletFlags): Promise<void> {
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
    wallet.stopSync();
  }
}

export function walletCommand(io: WalletCommandIo = { write: (text) => process.stdout.write(text) }): Command {
  const wallet = new Command('wallet').description(
    'create, restore and open wallets; serve the wallet JSON-RPC with --rpc-server',
  );
  const withCommonOptions = (command: Command): Command =>
    command
      .requiredOption('--wallet-file <path>', 'the encrypted wallet file')
      .option(
        '--password-file <path>',
        'read the wallet password from this file (default: ask on the terminal, without echo)',
      )
      .addOption(new Option('--network <name>', 'network of the wallet').choices(NETWORK_NAMES))
      .option('--testnet', 'shorthand for --network testnet')
      .addOption(
        new Option('--crypto <impl>', 'cryptography implementation (auto: native when built)').choices(CRYPTO_IMPLS),
      )
      .option('--json', 'print the result as JSON');

  withCommonOptions(wallet.command('create'))
    .description(
      'create a wallet file with fresh keys; prints its address and, this once, its 24 seed words (default network: mainnet)',
    )
    .action((flags: WalletFlags) => createWallet(flags, mnemonicToSecretKey(newMnemonic()), io, true));

  withCommonOptions(wallet.command('restore'))
    .description('create a wallet file from existing 24 seed words (default network: mainnet)')
    .option(
      '--mnemonic-file <path>',
      'read the 24 seed words from this file (default: ask on the terminal, without echo)',
    )
    .action(async (flags: WalletFlags) => {
      const words = flags.mnemonicFile
        ? readSecretFile(flags.mnemonicFile, 'mnemonic')
        : await promptSecret('Seed words (24)', '--mnemonic-file');
      await createWallet(flags, mnemonicToSecretKey(words), io, false);
    });

  withCommonOptions(wallet.command('open'))
    .description(
      "open a wallet file: show its address, the daemon's height and the balance, or serve the wallet JSON-RPC (--rpc-server)",
    )
    .option(
      '--daemon-address <host:port>',
      'daemon JSON-RPC address, host:port or an http(s) URL (default 127.0.0.1:10102 mainnet, :40402 testnet, :20000 simulator)',
    )
    .option('--rpc-server', 'serve the wallet JSON-RPC on /json_rpc and /ws until SIGINT/SIGTERM')
    .option(
      '--rpc-bind <host:port>',
      'wallet RPC address (default 127.0.0.1:10103 mainnet, :40403 testnet, :30000 simulator; port 0 = any free port)',
    )
    .option('--rpc-login <user:pass>', 'require HTTP Basic auth on the wallet RPC server')
    .addOption(new Option('--log-level <level>', 'log verbosity of the RPC server').choices(LOG_LEVELS))
    .action((flags: WalletFlags) => openWallet(flags, io));

  return wallet;
}
