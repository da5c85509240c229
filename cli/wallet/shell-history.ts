/**
 * The wallet shell's history file, next to the wallet (`<wallet-file>.history`): one command line per line, oldest
 * first, at most `limit` lines, readable by the owner only (a line can name amounts and addresses).
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { CliError, CliErrorCode } from '../cli-error.js';

export const HISTORY_LINES = 1000;

export const historyFileOf = (walletFile: string): string => `${walletFile}.history`;

/** The saved lines, newest first (as readline keeps its history); none when the file does not exist yet. */
export function loadShellHistory(path: string, limit = HISTORY_LINES): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new CliError(
      CliErrorCode.UnreadableFile,
      `cannot read the shell history ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .reverse()
    .slice(0, limit);
}

/** Writes `history` (newest first) to the file, the newest `limit` lines, mode 0600. */
export function saveShellHistory(path: string, history: readonly string[], limit = HISTORY_LINES): void {
  const lines = history.slice(0, limit).reverse();
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''), { mode: 0o600 });
  // The mode above applies only to a new file.
  chmodSync(path, 0o600);
}
