/**
 * `umbra wallet`: the wallet's command line, the front end of the wallet library. Each command's work is a function
 * of an open wallet session (host/cli/wallet/); this file only declares the commands and flags, opens the session
 * from the flags, and renders the result as text or, with --json, as one JSON document (failures included).
 *   create | restore                 a new wallet file (fresh keys, or existing seed words)
 *   open [--rpc-server]              a summary, or the wallet JSON-RPC until SIGINT/SIGTERM
 *   balance | address | seed | history
 *   send | call | install            transactions: shown, confirmed, sent, waited for
 */
import { Command, Option } from 'commander';
import { mnemonicToSecretKey, newMnemonic } from '../protocol/mnemonic.js';
import { NETWORK_NAMES } from '../protocol/network.js';
import { CRYPTO_IMPLS, LOG_LEVELS } from '../config/schema.js';
import { CliError, CliErrorCode } from './cli-error.js';
import { answeringFailuresAsJson } from './json-failure.js';
import { promptSecret, readSecretFile } from './secret-input.js';
import { address, addressText } from './wallet/address.js';
import { parseAmount } from './wallet/amount.js';
import { balance, balanceText } from './wallet/balance.js';
import { parseContractArguments } from './wallet/contract-argument.js';
import { call, callText } from './wallet/contract-call.js';
import { install, installText } from './wallet/contract-install.js';
import { createWallet } from './wallet/create.js';
import { parseCount, parseRingSize, parseScid } from './wallet/flag-values.js';
import { history, historyText } from './wallet/history.js';
import { render, type CommandOutput } from './wallet/output.js';
import { serveWallet, type RpcServerFlags } from './wallet/rpc-server.js';
import { seed, seedText } from './wallet/seed.js';
import { send, sendText } from './wallet/send.js';
import { openSession, walletServiceOptions, type SessionFlags, type WalletSession } from './wallet/session.js';
import { summary, summaryText } from './wallet/summary.js';

interface TransactionFlags extends SessionFlags {
  ring?: string;
  force?: boolean;
  yes?: boolean;
  wait: boolean;
}

/** A session command with its options bound, ready to run on the session. */
const withOptions =
  <O, T>(command: (session: WalletSession, options: O) => T, options: O) =>
  (session: WalletSession): T =>
    command(session, options);
const collect = (value: string, previous: string[]): string[] => [...previous, value];
const optionalAsset = (asset: string | undefined): string | undefined =>
  asset === undefined ? undefined : parseScid(asset, '--asset');
const ringOf = (flags: TransactionFlags): number | undefined =>
  flags.ring === undefined ? undefined : parseRingSize(flags.ring);

/** `SCID:AMOUNT` of --asset-deposit: the called contract's token and how much of it. */
function tokenDeposit(text: string, scid: string): bigint {
  const split = text.lastIndexOf(':');
  if (split < 0)
    throw new CliError(CliErrorCode.BadArgument, `--asset-deposit must be SCID:AMOUNT, got ${JSON.stringify(text)}`);
  if (parseScid(text.slice(0, split), '--asset-deposit SCID') !== scid)
    throw new CliError(CliErrorCode.BadArgument, '--asset-deposit can only deposit the called contract’s own token');
  return parseAmount(text.slice(split + 1), '--asset-deposit amount');
}

export function walletCommand(io: CommandOutput = { write: (text) => process.stdout.write(text) }): Command {
  const wallet = new Command('wallet').description(
    'create, restore and open wallets; balance, history, send coins, call and install contracts',
  );
  const write = (text: string): void => io.write(text);
  /**
   * Checks the command line (`plan` parses the arguments, before any password is asked for), opens the wallet the
   * flags name, runs the planned command on it and renders its result.
   */
  const run = <T>(
    flags: SessionFlags,
    plan: () => (session: WalletSession) => Promise<T> | T,
    text: (result: T) => string,
  ): Promise<void> =>
    answeringFailuresAsJson(flags.json, write, async () => {
      const command = plan();
      render(io, flags.json, await command(await openSession(flags)), text);
    });

  const walletFileOptions = (command: Command): Command =>
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
      .option('--json', 'print the result (or the error) as one JSON document');
  const sessionOptions = (command: Command): Command =>
    walletFileOptions(command).option(
      '--daemon-address <host:port>',
      'daemon JSON-RPC address, host:port or an http(s) URL (default 127.0.0.1:10102 mainnet, :40402 testnet, :20000 simulator)',
    );
  const transactionOptions = (command: Command, defaultRing: number): Command =>
    sessionOptions(command)
      .option('--ring <n>', `ring size, a power of two from 2 to 128 (default ${defaultRing})`)
      .option('--yes', 'send without asking for confirmation')
      .option('--no-wait', 'do not wait for the transaction to be in a block');

  walletFileOptions(wallet.command('create'))
    .description(
      'create a wallet file with fresh keys; prints its address and, this once, its 24 seed words (default network: mainnet)',
    )
    .action((flags: SessionFlags) =>
      answeringFailuresAsJson(flags.json, write, () =>
        createWallet(flags, mnemonicToSecretKey(newMnemonic()), io, true),
      ),
    );

  walletFileOptions(wallet.command('restore'))
    .description('create a wallet file from existing 24 seed words (default network: mainnet)')
    .option(
      '--mnemonic-file <path>',
      'read the 24 seed words from this file (default: ask on the terminal, without echo)',
    )
    .action((flags: SessionFlags & { mnemonicFile?: string }) =>
      answeringFailuresAsJson(flags.json, write, async () => {
        const words = flags.mnemonicFile
          ? readSecretFile(flags.mnemonicFile, 'mnemonic')
          : await promptSecret('Seed words (24)', '--mnemonic-file');
        await createWallet(flags, mnemonicToSecretKey(words), io, false);
      }),
    );

  sessionOptions(wallet.command('open'))
    .description(
      "open a wallet file: show its address, the daemon's height and the balance, or serve the wallet JSON-RPC (--rpc-server)",
    )
    .option('--rpc-server', 'serve the wallet JSON-RPC on /json_rpc and /ws until SIGINT/SIGTERM')
    .option(
      '--rpc-bind <host:port>',
      'wallet RPC address (default 127.0.0.1:10103 mainnet, :40403 testnet, :30000 simulator; port 0 = any free port)',
    )
    .option('--rpc-login <user:pass>', 'require HTTP Basic auth on the wallet RPC server')
    .addOption(new Option('--log-level <level>', 'log verbosity of the RPC server').choices(LOG_LEVELS))
    .action((flags: SessionFlags & RpcServerFlags & { rpcServer?: boolean }) => {
      if (flags.rpcServer)
        return answeringFailuresAsJson(flags.json, write, async () =>
          serveWallet(await walletServiceOptions(flags), flags),
        );
      return run(
        flags,
        () => {
          if (flags.rpcBind || flags.rpcLogin)
            throw new CliError(
              CliErrorCode.BadArgument,
              '--rpc-bind and --rpc-login configure the wallet RPC server: add --rpc-server',
            );
          return summary;
        },
        summaryText,
      );
    });

  sessionOptions(wallet.command('balance'))
    .description('the balance, in coins (5 decimals) and atomic units; JSON: atomic units')
    .option('--asset <scid>', 'a token’s balance (its SCID, 64 hex) instead of the native coin’s')
    .action((flags: SessionFlags & { asset?: string }) =>
      run(flags, () => withOptions(balance, { asset: optionalAsset(flags.asset) }), balanceText),
    );

  sessionOptions(wallet.command('address'))
    .description('the wallet’s address')
    .action((flags: SessionFlags) => run(flags, () => address, addressText));

  sessionOptions(wallet.command('seed'))
    .description('the 24 seed words, after a confirmation')
    .option('--yes', 'show them without asking')
    .action((flags: SessionFlags & { yes?: boolean }) =>
      run(flags, () => withOptions(seed, { yes: flags.yes }), seedText),
    );

  sessionOptions(wallet.command('history'))
    .description('the transfers of the native coin or a token, brought up to date first')
    .option('--in', 'only incoming transfers')
    .option('--out', 'only outgoing transfers')
    .option('--asset <scid>', 'a token’s transfers (its SCID) instead of the native coin’s')
    .option('--limit <n>', 'only the latest N transfers')
    .action((flags: SessionFlags & { in?: boolean; out?: boolean; asset?: string; limit?: string }) =>
      run(
        flags,
        () =>
          withOptions(history, {
            in: flags.in,
            out: flags.out,
            asset: optionalAsset(flags.asset),
            limit: flags.limit === undefined ? undefined : parseCount(flags.limit, '--limit'),
          }),
        historyText,
      ),
    );

  transactionOptions(wallet.command('send'), 16)
    .description('send coins (or a token) to an address, an integrated address or a registered name')
    .argument('<destination>', 'address, integrated address or registered name')
    .argument('<amount>', 'coins with up to 5 decimals (1.5) or atomic units with a u suffix (150000u)')
    .option('--asset <scid>', 'send this token (its SCID) instead of the native coin')
    .option('--payload <NAME:TYPE=VALUE>', 'an argument for the receiver (TYPE U, S or H); repeatable', collect, [])
    .action((destination: string, amount: string, flags: TransactionFlags & { asset?: string; payload: string[] }) =>
      run(
        flags,
        () =>
          withOptions(send, {
            destination,
            amount: parseAmount(amount),
            asset: optionalAsset(flags.asset),
            ring: ringOf(flags),
            payload: parseContractArguments(flags.payload, false),
            yes: flags.yes,
            wait: flags.wait,
          }),
        sendText,
      ),
    );

  transactionOptions(wallet.command('call'), 2)
    .description('call a contract’s entry point')
    .argument('<scid>', 'the contract (64 hex)')
    .argument('<entrypoint>', 'the entry point, e.g. Register')
    .argument(
      '[arguments...]',
      'NAME=VALUE (all digits: U, else S) or NAME:TYPE=VALUE with TYPE U (uint64), S (string), H (32-byte hex)',
    )
    .option('--deposit <amount>', 'coins to deposit into the contract (1.5, or 150000u)')
    .option('--asset-deposit <SCID:AMOUNT>', 'units of the contract’s own token to deposit')
    .option('--force', 'send even when the wallet’s trial run says the call fails')
    .action(
      (
        scid: string,
        entrypoint: string,
        args: string[],
        flags: TransactionFlags & { deposit?: string; assetDeposit?: string },
      ) =>
        run(
          flags,
          () => {
            const contract = parseScid(scid);
            return withOptions(call, {
              scid: contract,
              entrypoint,
              args: parseContractArguments(args, true),
              deposit: flags.deposit === undefined ? undefined : parseAmount(flags.deposit, '--deposit'),
              assetDeposit: flags.assetDeposit === undefined ? undefined : tokenDeposit(flags.assetDeposit, contract),
              ring: ringOf(flags),
              force: flags.force,
              yes: flags.yes,
              wait: flags.wait,
            });
          },
          callText,
        ),
    );

  transactionOptions(wallet.command('install'), 2)
    .description('install a contract from a .bas file; prints its SCID and the outcome of Initialize')
    .argument('<file>', 'the contract’s source (.bas)')
    .option('--force', 'send even when the wallet’s trial run says Initialize fails')
    .action((file: string, flags: TransactionFlags) =>
      run(
        flags,
        () => withOptions(install, { file, ring: ringOf(flags), force: flags.force, yes: flags.yes, wait: flags.wait }),
        installText,
      ),
    );

  return wallet;
}
