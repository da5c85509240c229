/**
 * Secrets the CLI reads (passwords, seed words): from a file named on the command line, or typed at the terminal
 * without echo. With neither a file nor a terminal (a script, a pipe) it is a clear error, never a hang.
 */
import { readFileSync } from 'node:fs';
import { CliError, CliErrorCode } from './cli-error.js';

export function readSecretFile(path: string, what: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(
      CliErrorCode.UnreadableFile,
      `cannot read the ${what} file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  // The line end an editor or `echo` adds belongs to the file, not to the secret.
  return text.replace(/\r?\n$/, '');
}

/** The terminal a secret is typed on: stdin in raw mode, prompts on stderr (stdout stays for results). */
export interface SecretTerminal {
  readonly input: NodeJS.ReadStream;
  readonly output: NodeJS.WritableStream;
}

const processTerminal = (): SecretTerminal => ({ input: process.stdin, output: process.stderr });

/** Asks for a secret on the terminal without echoing it; `hint` names the flag that avoids the prompt. */
export function promptSecret(
  question: string,
  hint: string,
  terminal: SecretTerminal = processTerminal(),
): Promise<string> {
  const { input, output } = terminal;
  if (!input.isTTY)
    return Promise.reject(
      new CliError(CliErrorCode.NoTerminal, `no terminal to ask for the ${question.toLowerCase()} on: give ${hint}`),
    );
  return new Promise((resolve, reject) => {
    let answer = '';
    const finish = (error?: Error): void => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(answer);
    };
    const onData = (chunk: Buffer | string): void => {
      for (const char of chunk.toString()) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        if (char === '\u0003') return finish(new CliError(CliErrorCode.Declined, 'cancelled'));
        if (char === '\u007f' || char === '\b') answer = answer.slice(0, -1);
        else answer += char;
      }
    };
    output.write(`${question}: `);
    input.setRawMode(true);
    input.on('data', onData);
    input.resume();
  });
}
