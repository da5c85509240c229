/**
 * `umbra wallet`: the wallet's command line, the front end of the wallet library. Each command's work is a function
 * of an open wallet session (cli/wallet/); this file only declares the commands and flags, opens the session
 * from the flags, and renders the result as text or, with --json, as one JSON document (failures included).
 *   create | restore                 a new wallet file (fresh keys, or existing seed words)
 *   open [--rpc-server | --web]      a summary, the wallet JSON-RPC or the web wallet until SIGINT/SIGTERM
 *   web                              the web wallet in the browser until SIGINT/SIGTERM
 *   balance | address | register | seed | history
 *   send | call | install            transactions: shown, confirmed, sent, waited for
 *   shell                            the commands above, interactively, on a wallet opened once
 *   check-proof TXID PROOF           a payment proof checked against its transaction (no wallet file)
 * The commands that work on an open session are declared in wallet/session-commands.ts, shared with the shell.
 */
import { Command, Option } from 'commander';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { mnemonicToSecretKey, newMnemonic } from '../protocol/mnemonic.js';
import { NETWORK_NAMES } from '../protocol/network.js';
import { CRYPTO_IMPLS, LOG_LEVELS } from '../host/config/schema.js';
import { cacheDirOption } from './cache-dir-option.js';
import { CliError, CliErrorCode } from './cli-error.js';
import { answeringFailuresAsJson } from './json-failure.js';
import { promptSecret, readSecretFile } from './secret-input.js';
import { createWallet } from './wallet/create.js';
import { checkProof, checkProofText } from './wallet/check-proof.js';
import { render, type CommandOutput } from './wallet/output.js';
import { serveWallet, type RpcServerFlags } from './wallet/rpc-server.js';
import { DEFAULT_WEB_PORT, serveWeb, type WebFlags } from './wallet/web-server.js';
import {
  jsonOption,
  planningAction,
  rendering,
  SESSION_COMMANDS,
  type PlannedCommand,
} from './wallet/session-commands.js';
import { privacyOptions } from './wallet/privacy-mode.js';
import { flaggedNetwork, openSession, walletServiceOptions, type SessionFlags } from './wallet/session.js';
import { runShell } from './wallet/shell.js';
import { summary, summaryText } from './wallet/summary.js';

const cryptoOption = (): Option =>
  new Option('--crypto <impl>', 'cryptography implementation (auto: native when built)').choices(CRYPTO_IMPLS);
const daemonAddressOption = (): Option =>
  new Option(
    '--daemon-address <host:port>',
    'daemon JSON-RPC address, host:port or an http(s) URL (default 127.0.0.1:10102 mainnet, :40402 testnet, :20000 simulator)',
  );

export function walletCommand(io: CommandOutput = { write: (text) => process.stdout.write(text) }): Command {
  const wallet = new Command('wallet').description(COMMAND_SUMMARIES.wallet);
  const write = (text: string): void => io.write(text);
  /**
   * Checks the command line (`plan` parses the arguments, before any password is asked for), opens the wallet the
   * flags name, runs the planned command on it and closes the wallet.
   */
  const run = (flags: SessionFlags, plan: () => PlannedCommand): Promise<void> =>
    answeringFailuresAsJson(flags.json, write, async () => {
      const command = plan();
      const session = await openSession(flags);
      try {
        await command(session, io, flags.json);
      } finally {
        session.wallet.close();
      }
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
      .addOption(cryptoOption());
  const sessionOptions = (command: Command): Command =>
    privacyOptions(walletFileOptions(command).addOption(daemonAddressOption()).addOption(cacheDirOption()));
  const webOptions = (command: Command): Command =>
    command
      .option(
        '--web-bind <host:port>',
        `web wallet address (default 127.0.0.1:${DEFAULT_WEB_PORT}; port 0 = any free port)`,
      )
      .option('--web-login <user:pass>', 'require HTTP Basic auth on the web wallet (required beyond loopback)')
      .option('--lock-minutes <n>', 'lock the web wallet after this many idle minutes (default 10)');
  /**
   * The web wallet's flags checked before the password is asked, then the wallet served until a signal; `setup`: a
   * missing wallet file is made in the page.
   */
  const web = (flags: SessionFlags & WebFlags, setup: boolean): Promise<void> =>
    answeringFailuresAsJson(flags.json, write, () => serveWeb(flags, setup));

  walletFileOptions(wallet.command('create'))
    .addOption(jsonOption())
    .description(
      'create a wallet file with fresh keys; prints its address and, this once, its 24 seed words (default network: mainnet)',
    )
    .action((flags: SessionFlags) =>
      answeringFailuresAsJson(flags.json, write, () =>
        createWallet(flags, mnemonicToSecretKey(newMnemonic()), io, true),
      ),
    );

  walletFileOptions(wallet.command('restore'))
    .addOption(jsonOption())
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

  const open = sessionOptions(wallet.command('open'))
    .addOption(jsonOption())
    .description(
      "open a wallet file: show its address, the daemon's height and the balance, or serve the wallet JSON-RPC (--rpc-server) or the web wallet (--web)",
    )
    .option('--rpc-server', 'serve the wallet JSON-RPC on /json_rpc and /ws until SIGINT/SIGTERM')
    .option(
      '--rpc-bind <host:port>',
      'wallet RPC address (default 127.0.0.1:10103 mainnet, :40403 testnet, :30000 simulator; port 0 = any free port)',
    )
    .option('--rpc-login <user:pass>', 'require HTTP Basic auth on the wallet RPC server')
    .option('--web', 'serve the web wallet (as `wallet web`) until SIGINT/SIGTERM')
    .addOption(new Option('--log-level <level>', 'log verbosity of the RPC server').choices(LOG_LEVELS));
  webOptions(open).action(
    (flags: SessionFlags & RpcServerFlags & WebFlags & { rpcServer?: boolean; web?: boolean }) => {
      if (flags.rpcServer && flags.web)
        return answeringFailuresAsJson(flags.json, write, () => {
          throw new CliError(CliErrorCode.BadArgument, '--rpc-server and --web are two ways to serve: choose one');
        });
      if (flags.web) return web(flags, false);
      if (flags.rpcServer)
        return answeringFailuresAsJson(flags.json, write, async () =>
          serveWallet(await walletServiceOptions(flags), flags),
        );
      return run(flags, () => {
        if (flags.rpcBind || flags.rpcLogin)
          throw new CliError(
            CliErrorCode.BadArgument,
            '--rpc-bind and --rpc-login configure the wallet RPC server: add --rpc-server',
          );
        if (flags.webBind || flags.webLogin || flags.lockMinutes)
          throw new CliError(
            CliErrorCode.BadArgument,
            '--web-bind, --web-login and --lock-minutes configure the web wallet: add --web',
          );
        return rendering(summary, summaryText);
      });
    },
  );

  webOptions(sessionOptions(wallet.command('web')))
    .description(
      'serve the wallet in the browser (127.0.0.1, a one-time link printed) until SIGINT/SIGTERM; a wallet file that does not exist yet is created or restored in the page; docs/wallet.md § Web wallet',
    )
    .addOption(new Option('--log-level <level>', 'log verbosity of the web wallet').choices(LOG_LEVELS))
    .action((flags: SessionFlags & WebFlags) => web(flags, true));

  for (const declaration of SESSION_COMMANDS)
    wallet.addCommand(
      planningAction(sessionOptions(declaration.commandLine()), declaration, (plan, flags) =>
        run(flags as unknown as SessionFlags, plan),
      ),
    );

  wallet
    .command('check-proof')
    .description(
      'check a payment proof against its transaction: which ring member received how much, or why the proof does not fit (no wallet file; only the transaction is read from the daemon)',
    )
    .argument('<txid>', 'the transaction (64 hex)')
    .argument('<proof>', 'the payment proof, umbproof1…')
    .addOption(daemonAddressOption())
    .addOption(
      new Option(
        '--network <name>',
        "the daemon's network: its default port (mainnet's without the flag), and it must be the daemon's",
      ).choices(NETWORK_NAMES),
    )
    .option('--testnet', 'shorthand for --network testnet')
    .addOption(cryptoOption())
    .addOption(jsonOption())
    .action((txid: string, proof: string, flags: Omit<SessionFlags, 'walletFile' | 'passwordFile'>) =>
      answeringFailuresAsJson(flags.json, write, async () =>
        render(
          io,
          flags.json,
          await checkProof({
            txid,
            proof,
            network: flaggedNetwork(flags),
            daemonAddress: flags.daemonAddress,
            crypto: flags.crypto,
          }),
          checkProofText,
        ),
      ),
    );

  sessionOptions(wallet.command('shell'))
    .description(
      'an interactive session on the wallet: the commands above without the wallet flags, with line editing, history and tab completion',
    )
    .action((flags: SessionFlags) => runShell(flags, io));

  return wallet;
}
