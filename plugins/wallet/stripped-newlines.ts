/**
 * Recognises a contract source whose newlines were stripped on the way (`curl -d @file.bas` drops them, where
 * `--data-binary` sends the file as it is): DVM-BASIC lines run together on one line. A contract needs at least a
 * `Function` line, a numbered statement and `End Function`, so a body with no newline that shows two of those is one.
 */

/** `Function … End Function` on one line counts twice; lines joined without a space still show the word. */
const FUNCTION_WORD = /function/gi;
/** A statement's line number after other text, as in `Uint64 10 RETURN 0`. */
const LINE_NUMBER_MID_LINE = /\S\s+\d+\s+[a-z]/i;

export const STRIPPED_NEWLINES_MESSAGE =
  'the contract source arrived as one line: its newlines were stripped (curl -d does that); ' +
  'send the file unchanged with curl --data-binary @file.bas';

export function newlinesWereStripped(source: string): boolean {
  if (/[\r\n]/.test(source)) return false;
  return (source.match(FUNCTION_WORD)?.length ?? 0) > 1 || LINE_NUMBER_MID_LINE.test(source);
}
