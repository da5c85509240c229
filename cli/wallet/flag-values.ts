/** Checks of the wallet commands' flag values that are not amounts: ring sizes, SCIDs, counts. */
import { CliError, CliErrorCode } from '../cli-error.js';

/** A ring size: a power of two from 2 to 128. */
export function parseRingSize(text: string): number {
  const size = /^[0-9]{1,3}$/.test(text) ? Number(text) : Number.NaN;
  if (!(size >= 2 && size <= 128 && (size & (size - 1)) === 0))
    throw new CliError(
      CliErrorCode.BadArgument,
      `--ring must be a power of two from 2 to 128, got ${JSON.stringify(text)}`,
    );
  return size;
}

/** An asset or contract id: 64 hex digits, lowercased. */
export function parseScid(text: string, what = 'SCID'): string {
  if (!/^[0-9a-fA-F]{64}$/.test(text))
    throw new CliError(CliErrorCode.BadArgument, `${what} must be 64 hex digits, got ${JSON.stringify(text)}`);
  return text.toLowerCase();
}

/** A positive count (e.g. --limit). */
export function parseCount(text: string, what: string): number {
  if (!/^[1-9][0-9]{0,8}$/.test(text))
    throw new CliError(
      CliErrorCode.BadArgument,
      `${what} must be a positive whole number, got ${JSON.stringify(text)}`,
    );
  return Number(text);
}
