/**
 * Splits a line of the wallet shell into words as a POSIX shell would, without expansions: blanks separate words,
 * 'single quotes' keep everything literally, "double quotes" keep blanks and let a backslash escape \ " $ and `,
 * and outside quotes a backslash keeps the next character as it is.
 */
import { CliError, CliErrorCode } from '../cli-error.js';

const BLANK = /[ \t]/;
const ESCAPABLE_IN_DOUBLE_QUOTES = '\\"$`';

export function splitShellLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  // A word can be empty ('' or ""), so whether one is open is tracked apart from its text.
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && ESCAPABLE_IN_DOUBLE_QUOTES.includes(line[i + 1] ?? '')) word += line[++i];
      else word += char;
    } else if (BLANK.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      inWord = true;
      if (char === "'" || char === '"') quote = char;
      else if (char === '\\') {
        if (i + 1 === line.length)
          throw new CliError(CliErrorCode.BadArgument, 'the line ends with a backslash: nothing to escape');
        word += line[++i];
      } else word += char;
    }
  }
  if (quote) throw new CliError(CliErrorCode.BadArgument, `unterminated ${quote} quote`);
  if (inWord) words.push(word);
  return words;
}
