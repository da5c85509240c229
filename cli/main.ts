/** The `umbra` command line: one program, one subcommand per tool. */
import { Command, CommanderError } from 'commander';
import { UMBRA_VERSION } from '../host/version.js';
import { AnsweredFailure, answerUsageError, throwingUsageErrors, wantsJson } from './json-failure.js';

/**
 * The subcommands in the order `umbra --help` lists them, each loaded only when needed: a command run loads its own
 * modules and not the others' (the daemon no prompts, the simulator no contract tools), which is less memory and a
 * faster start.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  daemon: async () => (await import('./daemon-command.js')).daemonCommand(),
  keys: async () => (await import('./keys-command.js')).keysCommand(),
  wallet: async () => (await import('./wallet-command.js')).walletCommand(),
  miner: async () => (await import('./miner-command.js')).minerCommand(),
  simulator: async () => (await import('./simulator-command.js')).simulatorCommand(),
  contract: async () => (await import('./contract-command.js')).contractCommand(),
  status: async () => (await import('./status-command.js')).statusCommand(),
};

/** The program for `argv`: with only the subcommand it names, or with every one (help, an unknown name). */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command('umbra')
    .description('Umbra: a privacy-preserving smart-contract blockchain node')
    .version(UMBRA_VERSION)
    .showHelpAfterError();
  const named = argv[0] !== undefined && Object.hasOwn(COMMANDS, argv[0]) ? [argv[0]] : Object.keys(COMMANDS);
  for (const command of await Promise.all(named.map((name) => COMMANDS[name]!()))) program.addCommand(command);
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
