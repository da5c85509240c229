/**
 * Asks a person to confirm before something that cannot be taken back (sending, showing the seed words), with the
 * prompt on stderr so that stdout keeps only the result. `--yes` skips the question; without a terminal to ask on
 * and without `--yes` the command is refused, never left waiting.
 */
import { confirm } from '@inquirer/prompts';
import { CliError, CliErrorCode } from '../cli-error.js';

export async function confirmOrRefuse(question: string, yes: boolean | undefined, refused: string): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY)
    throw new CliError(CliErrorCode.NoTerminal, `no terminal to confirm on: add --yes to ${refused} without asking`);
  let answer: boolean;
  try {
    answer = await confirm({ message: question, default: false }, { output: process.stderr });
  } catch {
    // The prompt rejects when the person presses Ctrl-C.
    answer = false;
  }
  if (!answer) throw new CliError(CliErrorCode.Declined, `cancelled: did not ${refused}`);
}
