/**
 * `--json` answers one JSON document on stdout, failures included: an expected failure (an UmbraError) becomes
 * `{"ok": false, "error": {"code", "message"}}`, and the CLI's `main` exits 1 without printing anything more. Commander's own
 * refusals of a command line (an unknown option, a missing argument, a bad choice) are answered the same way, with
 * the code `cli.usage`.
 */
import type { Command, CommanderError } from 'commander';
import { UmbraError } from '../core-native/ts/errors.js';
import { CliErrorCode } from './cli-error.js';

/** A failure already answered on stdout as JSON (with its code); `main` only sets the exit status. */
export class AnsweredFailure extends UmbraError {
  override readonly name = 'AnsweredFailure';
  constructor(answered: UmbraError) {
    super(answered.code, answered.message, { cause: answered });
  }
}

const errorDocument = (code: string, message: string): string =>
  `${JSON.stringify({ ok: false, error: { code, message } }, null, 2)}\n`;

/** Runs `action`; when `json` is set, an UmbraError it throws is written as a JSON error and rethrown as answered. */
export async function answeringFailuresAsJson(
  json: boolean | undefined,
  write: (text: string) => void,
  action: () => Promise<void>,
): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!json || !(error instanceof UmbraError) || error instanceof AnsweredFailure) throw error;
    write(errorDocument(error.code, error.message));
    throw new AnsweredFailure(error);
  }
}

/** Whether the command line asks for JSON answers (before commander has parsed it). */
export const wantsJson = (argv: readonly string[]): boolean => argv.includes('--json');

/** Makes `program` and all its subcommands report usage errors as CommanderErrors, silent on stderr when `json`. */
export function throwingUsageErrors(program: Command, json: boolean): Command {
  program.exitOverride();
  if (json) program.configureOutput({ writeErr: () => undefined, outputError: () => undefined });
  for (const command of program.commands) throwingUsageErrors(command, json);
  return program;
}

/** Answers a usage error as JSON; help and version output (exit code 0) are not errors. */
export function answerUsageError(error: CommanderError, write: (text: string) => void): void {
  if (error.exitCode !== 0) write(errorDocument(CliErrorCode.Usage, error.message.replace(/^error: /, '')));
}
