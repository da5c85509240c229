/** The `umbra` command line: one program, one subcommand per tool. */
import { Command, CommanderError } from 'commander';
import { UMBRA_VERSION } from '../host/version.js';
import { COMMAND_SUMMARIES, type CommandName } from './command-summaries.js';
import { AnsweredFailure, answerUsageError, throwingUsageErrors, wantsJson } from './json-failure.js';

/**
 * How to load each subcommand: a command run loads its own modules and not the others' (the daemon no prompts, the
 * simulator no contract tools), which is less memory and a faster start.
 */
const COMMANDS: Record<CommandName, () => Promise<Command>> = {
  daemon: async () => (await import('./daemon-command.js')).daemonCommand(),
  keys: async () => (await import('./keys-command.js')).keysCommand(),
  wallet: async () => (await import('./wallet-command.js')).walletCommand(),
  miner: async () => (await import('./miner-command.js')).minerCommand(),
  simulator: async () => (await import('./simulator-command.js')).simulatorCommand(),
  contract: async () => (await import('./contract-command.js')).contractCommand(),
  status: async () => (await import('./status-command.js')).statusCommand(),
};

const isCommandName = (name: string | undefined): name is CommandName =>
  name !== undefined && Object.hasOwn(COMMANDS, name);

/** The subcommand `argv` runs or asks help for (`umbra daemon …`, `umbra help daemon`), if it names one. */
function namedCommand(argv: readonly string[]): CommandName | undefined {
  const [first, second] = argv;
  if (isCommandName(first)) return first;
  return first === 'help' && isCommandName(second) ? second : undefined;
}

/**
 * The program for `argv`: with the subcommand it names, loaded; otherwise (--version, --help, an unknown name) with
 * every subcommand listed by its summary and none loaded, so that those answer at once.
 */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command('umbra')
    .description('Umbra: a privacy-preserving smart-contract blockchain node')
    .version(UMBRA_VERSION)
    .showHelpAfterError();
  const named = namedCommand(argv);
  if (named) program.addCommand(await COMMANDS[named]());
  else for (const [name, summary] of Object.entries(COMMAND_SUMMARIES)) program.command(name).summary(summary);
  return program;
}

/**
 * Runs the CLI; expected failures (bad config, busy data dir, ...) print one clear line and exit 1, no stack; with
 * --json on the command line, usage errors are answered as JSON too.
 */
export async function main(argv: string[]): Promise<void> {
  const json = wantsJson(argv);
  const program = throwingUsageErrors(await buildProgram(argv), json);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (json) answerUsageError(error, (text) => process.stdout.write(text));
      process.exit(error.exitCode);
    }
    if (error instanceof AnsweredFailure) process.exit(1);
    process.stderr.write(`umbra: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
