/** The `umbra` command line: one program, one subcommand per tool. */
import { Command, CommanderError } from 'commander';
import { UMBRA_VERSION } from '../version.js';
import { contractCommand } from './contract-command.js';
import { daemonCommand } from './daemon-command.js';
import { AnsweredFailure, answerUsageError, throwingUsageErrors, wantsJson } from './json-failure.js';
import { keysCommand } from './keys-command.js';
import { minerCommand } from './miner-command.js';
import { simulatorCommand } from './simulator-command.js';
import { statusCommand } from './status-command.js';
import { walletCommand } from './wallet-command.js';

export function buildProgram(): Command {
  return new Command('umbra')
    .description('Umbra: a privacy-preserving smart-contract blockchain node')
    .version(UMBRA_VERSION)
    .showHelpAfterError()
    .addCommand(daemonCommand())
    .addCommand(keysCommand())
    .addCommand(walletCommand())
    .addCommand(minerCommand())
    .addCommand(simulatorCommand())
    .addCommand(contractCommand())
    .addCommand(statusCommand());
}

/**
 * Runs the CLI; expected failures (bad config, busy data dir, ...) print one clear line and exit 1, no stack; with
 * --json on the command line, usage errors are answered as JSON too.
 */
export async function main(argv: string[]): Promise<void> {
  const json = wantsJson(argv);
  const program = throwingUsageErrors(buildProgram(), json);
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
