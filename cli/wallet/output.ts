/**
 * The one formatter of the wallet commands: a result is written either as one exact JSON document (amounts as JSON
 * integers with every digit, protocol/exact-json.ts) or as the text its command describes it with.
 */
import { stringifyExactJson } from '../../protocol/exact-json.js';

export interface CommandOutput {
  /** Where results go (stdout). */
  write(text: string): void;
}

/** Writes `result` as JSON when `json`, else as `text(result)`. */
export function render<T>(
  output: CommandOutput,
  json: boolean | undefined,
  result: T,
  text: (result: T) => string,
): void {
  output.write(json ? `${stringifyExactJson(result)}\n` : text(result));
}

/** `label: value` lines with the values aligned. */
export function labelled(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}\n`).join('');
}

/** A table with a header row, columns padded to their widest cell. */
export function columns(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]): string =>
    `${cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()}\n`;
  return [header, ...rows].map(line).join('');
}
