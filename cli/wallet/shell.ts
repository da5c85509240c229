/**
 * `umbra wallet shell`: an interactive session on a wallet opened once. Each line is split like a shell's
 * (shell-line.ts) and parsed by the same commander command as `umbra wallet COMMAND`, minus the session flags
 * (session-commands.ts), then run on the open session. A failing command prints `error: …` and the shell goes on; a
 * mistyped command name is answered with the closest one.
 */
import { CommanderError } from 'commander';
import { closestName } from '../../host/rpc/closest-name.js';
import { CliError, CliErrorCode } from '../cli-error.js';
import { AnsweredFailure, answeringFailuresAsJson } from '../json-failure.js';
import type { CommandOutput } from './output.js';
import { planningAction, SESSION_COMMANDS, type SessionCommand } from './session-commands.js';
import { openSession, syncHistory, type SessionFlags, type WalletSession } from './session.js';
import { completable, shellCompleter } from './shell-completion.js';
import { HISTORY_LINES, historyFileOf, loadShellHistory, saveShellHistory } from './shell-history.js';
import { shellInput } from './shell-input.js';
import { splitShellLine } from './shell-line.js';

/** The shell's own commands, with their one-line help. */
const BUILTINS: readonly (readonly [string, string])[] = [
  ['help', 'help [COMMAND]: the commands, or one command’s usage (also: COMMAND --help)'],
  ['sync', 'bring the history up to date with the daemon'],
  ['refresh', 'the same as sync'],
  ['exit', 'leave the shell (also: Ctrl-D, or Ctrl-C on an empty line)'],
  ['quit', 'the same as exit'],
];

/** `umbs1qy4w9…a7ltxj`: the wallet in the prompt, short enough to leave room for the line. */
const shortAddress = (address: string): string => `${address.slice(0, 10)}…${address.slice(-6)}`;

/** Opens the wallet the flags name and reads commands until exit; the wallet is closed at the end. */
export async function runShell(flags: SessionFlags, io: CommandOutput): Promise<void> {
  const historyFile = historyFileOf(flags.walletFile);
  const savedHistory = loadShellHistory(historyFile);
  const session = await openSession(flags);
  const input = shellInput({
    input: process.stdin,
    output: process.stdout,
    completer: shellCompleter(
      SESSION_COMMANDS.map((declaration) => completable(declaration.commandLine())),
      BUILTINS.map(([name]) => name),
    ),
    history: savedHistory,
    historySize: HISTORY_LINES,
  });
  const prompt = `umbra (${shortAddress(session.wallet.address)}) > `;
  session.note(
    `wallet ${session.wallet.address} (${session.wallet.keys.network}): help lists the commands, exit leaves`,
  );
  try {
    for (;;) {
      const line = await input.next(prompt);
      if (line === undefined) break;
      if (input.history) saveHistory(session, historyFile, input.history);
      if ((await runLine(session, line, io)) === 'exit') break;
    }
  } finally {
    input.close();
    session.wallet.close();
  }
}

/** Saves the history after each line; a history that cannot be written is said, and the shell goes on. */
function saveHistory(session: WalletSession, file: string, history: readonly string[]): void {
  try {
    saveShellHistory(file, history);
  } catch (error) {
    session.note(
      `error: cannot save the shell history to ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** Runs one line; says 'exit' when it asks to leave. Failures are printed, never thrown. */
async function runLine(session: WalletSession, line: string, io: CommandOutput): Promise<'exit' | undefined> {
  try {
    const [name, ...args] = splitShellLine(line);
    if (name === undefined) return undefined;
    if (name === 'exit' || name === 'quit') return 'exit';
    if (name === 'help') help(args, io);
    else if (name === 'sync' || name === 'refresh') {
      await syncHistory(session);
      io.write(`history up to date at height ${await session.wallet.height()}\n`);
    } else await runSessionCommand(session, commandNamed(name), args, io);
  } catch (error) {
    // Commander has printed its refusal (or the help it was asked for); a JSON answer has been written.
    if (error instanceof CommanderError || error instanceof AnsweredFailure) return undefined;
    process.stderr.write(`error: ${(error as Error).message}\n`);
  }
  return undefined;
}

/** The session command `name`; an unknown name is refused with the closest command, as `umbra wallet` does. */
function commandNamed(name: string): SessionCommand {
  const declaration = SESSION_COMMANDS.find((command) => command.name === name);
  if (declaration) return declaration;
  const suggestion = closestName(name, [
    ...SESSION_COMMANDS.map((command) => command.name),
    ...BUILTINS.map(([n]) => n),
  ]);
  throw new CliError(
    CliErrorCode.Usage,
    `unknown command '${name}' (${suggestion ? `did you mean ${suggestion}? ` : ''}help lists the commands)`,
  );
}

/** Parses `args` with the command's own command line and runs it on the open session. */
async function runSessionCommand(
  session: WalletSession,
  declaration: SessionCommand,
  args: string[],
  io: CommandOutput,
): Promise<void> {
  const command = declaration
    .commandLine()
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.write(text) })
    .showHelpAfterError(`(${declaration.name} --help for its usage)`);
  planningAction(command, declaration, (plan, flags) => {
    const json = flags['json'] as boolean | undefined;
    return answeringFailuresAsJson(
      json,
      (text) => io.write(text),
      () => plan()(session, io, json),
    );
  });
  await command.parseAsync(args, { from: 'user' });
}

/** `help`: every command; `help COMMAND`: its usage. */
function help(args: readonly string[], io: CommandOutput): void {
  const [name] = args;
  if (name === undefined) {
    const rows = [
      ...SESSION_COMMANDS.map((command) => [command.name, command.commandLine().description()] as const),
      ...BUILTINS,
    ];
    const width = Math.max(...rows.map(([command]) => command.length)) + 2;
    io.write(`${rows.map(([command, text]) => `  ${command.padEnd(width)}${text}\n`).join('')}`);
    return;
  }
  const builtin = BUILTINS.find(([command]) => command === name);
  io.write(builtin ? `${builtin[1]}\n` : commandNamed(name).commandLine().helpInformation());
}
