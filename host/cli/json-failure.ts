/**
 * `--json` answers one JSON document on stdout, failures included: an expected failure (an UmbraError) becomes
 * `{"error": {"code", "message"}}`, and the CLI's `main` exits 1 without printing anything more.
 */
import { UmbraError } from '../errors.js';

/** A failure already answered on stdout as JSON; `main` only sets the exit status. */
export class AnsweredFailure extends Error {
  override readonly name = 'AnsweredFailure';
}

/** Runs `action`; when `json` is set, an UmbraError it throws is written as a JSON error and rethrown as answered. */
export async function answeringFailuresAsJson(
  json: boolean | undefined,
  write: (text: string) => void,
  action: () => Promise<void>,
): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!json || !(error instanceof UmbraError)) throw error;
    write(`${JSON.stringify({ error: { code: error.code, message: error.message } }, null, 2)}\n`);
    throw new AnsweredFailure(error.message, { cause: error });
  }
}
