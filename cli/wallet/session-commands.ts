/**
 * The wallet commands that work on an open session (balance, address, status, register, seed, history, send, call,
 * install), each declared once: its arguments, options and description, how its command line becomes the work to do
 * on a session, and how its result reads as text. `umbra wallet COMMAND` adds the session flags and opens a session per run; the
 * shell (shell.ts) parses its lines with the same commands and runs them on the session it keeps open.
 */
import { Command, Option } from 'commander';
import { DEFAULT_CONTRACT_RING, DEFAULT_RING } from '../../wallet/wallet-constants.js';
import { AMOUNT_NOTATION, parseAmount } from '../../protocol/coin-amount.js';
import { CliError, CliErrorCode } from '../cli-error.js';
import { address, addressText } from './address.js';
import { balance, balanceText } from './balance.js';
import { parseContractArguments } from './contract-argument.js';
import { call, callText } from './contract-call.js';
import { install, installText } from './contract-install.js';
import { parseCount, parseRingSize, parseScid } from './flag-values.js';
import { history, historyText } from './history.js';
import { render, type CommandOutput } from './output.js';
import { register, registerText } from './register.js';
import { seed, seedText } from './seed.js';
import { send, sendText } from './send.js';
import { status, statusText } from './status.js';
import type { WalletSession } from './session.js';

/** --json, which every command but the shell takes. */
export const jsonOption = (): Option => new Option('--json', 'print the result (or the error) as one JSON document');

/** A command's work, planned from its command line: runs on a session and writes its result (as JSON when `json`). */
export type PlannedCommand = (
  session: WalletSession,
  output: CommandOutput,
  json: boolean | undefined,
) => Promise<void>;

export interface SessionCommand {
  readonly name: string;
  /** A fresh commander command with the description, arguments and options (--json included, session flags not). */
  commandLine(): Command;
  /**
   * Checks the parsed arguments (positional ones as commander passes them, then the options) before any password is
   * asked for, and returns the work.
   */
  plan(args: readonly unknown[], flags: Record<string, unknown>): PlannedCommand;
}

/** Declares a session command; `plan` turns the command line into a function of the session, `text` its result. */
function sessionCommand<A extends unknown[], F, T>(declaration: {
  name: string;
  define(command: Command): Command;
  plan(args: A, flags: F): (session: WalletSession) => Promise<T> | T;
  text(result: T): string;
}): SessionCommand {
  return {
    name: declaration.name,
    commandLine: () => declaration.define(new Command(declaration.name)).addOption(jsonOption()),
    plan: (args, flags) => rendering(declaration.plan(args as A, flags as F), declaration.text),
  };
}

/** Work on a session whose result is rendered with `text` (or as JSON). */
export const rendering =
  <T>(work: (session: WalletSession) => Promise<T> | T, text: (result: T) => string): PlannedCommand =>
  async (session, output, json) =>
    render(output, json, await work(session), text);

interface TransactionFlags {
  ring?: string;
  force?: boolean;
  yes?: boolean;
  wait: boolean;
}

const transactionOptions = (command: Command, defaultRing: number): Command =>
  command
    .option(
      '--ring <n>',
      `ring size, a power of two from 2 to 128 (default ${defaultRing}${defaultRing > 2 ? ', or the largest ring a young chain can fill' : ''})`,
    )
    .option('--yes', 'send without asking for confirmation')
    .option('--no-wait', 'do not wait for the transaction to be in a block');
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

export const SESSION_COMMANDS: readonly SessionCommand[] = [
  sessionCommand({
    name: 'balance',
    define: (command) =>
      command
        .description('the balance, in coins (5 decimals) and atomic units; JSON: atomic units')
        .option('--asset <scid>', 'a token’s balance (its SCID, 64 hex) instead of the native coin’s'),
    plan: (_: [], flags: { asset?: string }) => {
      const asset = optionalAsset(flags.asset);
      return (session) => balance(session, { asset });
    },
    text: balanceText,
  }),

  sessionCommand({
    name: 'address',
    define: (command) => command.description('the wallet’s address'),
    plan: () => address,
    text: addressText,
  }),

  sessionCommand({
    name: 'status',
    define: (command) =>
      command.description(
        'how the wallet reads the chain: its privacy mode, the privacy set, the daemon and the last verified height',
      ),
    plan: () => status,
    text: statusText,
  }),

  sessionCommand({
    name: 'register',
    define: (command) =>
      command.description(
        'put a new wallet’s account on chain (a proof of work and one block), so that it can receive; a first send does it too',
      ),
    plan: () => register,
    text: registerText,
  }),

  sessionCommand({
    name: 'seed',
    define: (command) =>
      command.description('the 24 seed words, after a confirmation').option('--yes', 'show them without asking'),
    plan: (_: [], flags: { yes?: boolean }) => (session) => seed(session, { yes: flags.yes }),
    text: seedText,
  }),

  sessionCommand({
    name: 'history',
    define: (command) =>
      command
        .description('the transfers of the native coin or a token, brought up to date first')
        .option('--in', 'only incoming transfers')
        .option('--out', 'only outgoing transfers')
        .option('--asset <scid>', 'a token’s transfers (its SCID) instead of the native coin’s')
        .option('--limit <n>', 'only the latest N transfers'),
    plan: (_: [], flags: { in?: boolean; out?: boolean; asset?: string; limit?: string }) => {
      const options = {
        in: flags.in,
        out: flags.out,
        asset: optionalAsset(flags.asset),
        limit: flags.limit === undefined ? undefined : parseCount(flags.limit, '--limit'),
      };
      return (session) => history(session, options);
    },
    text: historyText,
  }),

  sessionCommand({
    name: 'send',
    define: (command) =>
      transactionOptions(command, DEFAULT_RING)
        .description('send coins (or a token) to an address, an integrated address or a registered name')
        .argument('<destination>', 'address, integrated address or registered name')
        .argument('<amount>', AMOUNT_NOTATION)
        .option('--asset <scid>', 'send this token (its SCID) instead of the native coin')
        .option(
          '--payload <NAME:TYPE=VALUE>',
          'an argument for the receiver (TYPE U, S or H); repeatable',
          collect,
          [],
        ),
    plan: (
      [destination, amount]: [string, string],
      flags: TransactionFlags & { asset?: string; payload: string[] },
    ) => {
      const options = {
        destination,
        amount: parseAmount(amount, 'amount'),
        asset: optionalAsset(flags.asset),
        ring: ringOf(flags),
        payload: parseContractArguments(flags.payload, false),
        yes: flags.yes,
        wait: flags.wait,
      };
      return (session) => send(session, options);
    },
    text: sendText,
  }),

  sessionCommand({
    name: 'call',
    define: (command) =>
      transactionOptions(command, DEFAULT_CONTRACT_RING)
        .description('call a contract’s entry point')
        .argument('<scid>', 'the contract (64 hex)')
        .argument('<entrypoint>', 'the entry point, e.g. Register')
        .argument(
          '[arguments...]',
          'NAME=VALUE (all digits: U, else S) or NAME:TYPE=VALUE with TYPE U (uint64), S (string), H (32-byte hex)',
        )
        .option('--deposit <amount>', `coins to deposit into the contract: ${AMOUNT_NOTATION}`)
        .option(
          '--asset-deposit <SCID:AMOUNT>',
          `the contract’s own token to deposit; AMOUNT as for coins: ${AMOUNT_NOTATION}`,
        )
        .option('--force', 'send even when the wallet’s trial run says the call fails'),
    plan: (
      [scid, entrypoint, args]: [string, string, string[]],
      flags: TransactionFlags & { deposit?: string; assetDeposit?: string },
    ) => {
      const contract = parseScid(scid);
      const options = {
        scid: contract,
        entrypoint,
        args: parseContractArguments(args, true),
        deposit: flags.deposit === undefined ? undefined : parseAmount(flags.deposit, '--deposit'),
        assetDeposit: flags.assetDeposit === undefined ? undefined : tokenDeposit(flags.assetDeposit, contract),
        ring: ringOf(flags),
        force: flags.force,
        yes: flags.yes,
        wait: flags.wait,
      };
      return (session) => call(session, options);
    },
    text: callText,
  }),

  sessionCommand({
    name: 'install',
    define: (command) =>
      transactionOptions(command, DEFAULT_CONTRACT_RING)
        .description('install a contract from a .bas file; prints its SCID and the outcome of Initialize')
        .argument('<file>', 'the contract’s source (.bas)')
        .option('--force', 'send even when the wallet’s trial run says Initialize fails'),
    plan: ([file]: [string], flags: TransactionFlags) => {
      const options = { file, ring: ringOf(flags), force: flags.force, yes: flags.yes, wait: flags.wait };
      return (session) => install(session, options);
    },
    text: installText,
  }),
];

/** Makes `command`'s action plan the work from its parsed command line and hand it to `run`. */
export function planningAction(
  command: Command,
  declaration: SessionCommand,
  run: (plan: () => PlannedCommand, flags: Record<string, unknown>) => Promise<void>,
): Command {
  return command.action((...params: unknown[]) => {
    const parsed = params.at(-1) as Command;
    const flags = parsed.opts();
    return run(() => declaration.plan(parsed.processedArgs, flags), flags);
  });
}
