/**
 * Tokeniser for contract BASIC (docs/contracts.md § Source text, § Where Umbra differs from the reference).
 *
 * - Whitespace is space, tab, CR and LF; comments are `'` or `//` to the end of the line and `/* … *\/`.
 * - `REM` (a whole word, any case) or `;` discards the rest of its physical line. Unlike the reference, an
 *   identifier that merely starts with REM (`REMAINDER`) is an ordinary identifier.
 * - Two-character operators (`== != <= >= <> && || << >> &^`) are single tokens, so they work in every statement,
 *   including LET; string literals are never rewritten.
 * - Numbers: decimal (leading zeros stay decimal: `010` is ten), `0x`, `0o`, `0b`, with `_` separators. Fractions
 *   and exponents lex as `float` tokens, which the compiler rejects.
 * Each token records the source line it starts on; the structure pass groups tokens into lines by it.
 */
import { utf8ByteString } from '../../protocol/contract-values.js';

export type TokenKind = 'ident' | 'int' | 'float' | 'string' | 'op' | 'bad';

export interface Token {
  readonly kind: TokenKind;
  /** The token as written. */
  readonly text: string;
  /** 1-based source line where the token starts. */
  readonly line: number;
  /** int: the value; string: the byte string; bad: why the token is malformed. */
  readonly value?: bigint | string;
}

const TWO_CHAR_OPS = new Set(['==', '!=', '<=', '>=', '<>', '&&', '||', '<<', '>>', '&^']);
const IDENT_START = /[\p{L}_]/u;
const IDENT_PART = /[\p{L}\p{N}_]/u;
const NUMBER = /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|[0-9][0-9_]*)/;
const MAX_U64 = (1n << 64n) - 1n;

/** The value of an integer literal, or a message saying why it is not one. */
export function parseIntegerLiteral(text: string): bigint | string {
  if (text.startsWith('_') || text.endsWith('_') || text.includes('__')) return `malformed number ${text}`;
  const digits = text.replace(/_/g, '');
  const prefixed = /^0[xXoObB]/.test(digits);
  if (prefixed && digits.length === 2) return `malformed number ${text}`;
  if (prefixed && digits[2] === '_') return `malformed number ${text}`;
  const value = prefixed ? BigInt(digits.toLowerCase()) : BigInt(digits);
  return value > MAX_U64 ? `number ${text} does not fit in 64 bits` : value;
}

/** Go-style escapes in an interpreted string literal, giving a byte string; a message on a bad escape. */
function unquote(body: string): string | { error: string } {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      const code = body.codePointAt(i)!;
      if (code > 0xffff) i++;
      out += code < 0x80 ? c : utf8ByteString(String.fromCodePoint(code));
      continue;
    }
    const e = body[++i] ?? ''; // '' past the end: an unknown escape
    const simple: Record<string, string> = {
      a: '\x07',
      b: '\b',
      f: '\f',
      n: '\n',
      r: '\r',
      t: '\t',
      v: '\v',
      '\\': '\\',
      '"': '"',
    };
    if (e in simple) {
      out += simple[e];
    } else if (e >= '0' && e <= '7') {
      const octal = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(octal) || parseInt(octal, 8) > 255) return { error: `bad octal escape \\${octal}` };
      out += String.fromCharCode(parseInt(octal, 8));
      i += 2;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const width = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + width);
      if (hex.length !== width || !/^[0-9a-fA-F]+$/.test(hex)) return { error: `bad escape \\${e}${hex}` };
      const code = parseInt(hex, 16);
      if (e === 'x') out += String.fromCharCode(code);
      else if (code > 0x10ffff || (code >= 0xd800 && code < 0xe000))
        return { error: `escape \\${e}${hex} is not a valid code point` };
      else out += utf8ByteString(String.fromCodePoint(code));
      i += width;
    } else {
      return { error: `unknown escape \\${e}` };
    }
  }
  return out;
}

/** The read position in a source text, the token being read, and the tokens read so far. */
class Scanner {
  readonly tokens: Token[] = [];
  i: number;
  line = 1;
  private start = 0;
  private startLine = 1;

  constructor(readonly source: string) {
    this.i = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  }

  /** Marks the current position as the start of the next token. */
  begin(): void {
    this.start = this.i;
    this.startLine = this.line;
  }

  /** Ends the token begun at `begin` at the current position. */
  push(kind: TokenKind, value?: bigint | string): void {
    this.tokens.push({ kind, text: this.source.slice(this.start, this.i), line: this.startLine, value });
  }

  /** Skips to the end of the current physical line (comments, REM, `;`). */
  skipLine(): void {
    while (this.i < this.source.length && this.source[this.i] !== '\n') this.i++;
  }
}

/** The tokens of a contract's source text, in order; malformed ones are `bad` tokens saying why. */
export function tokenize(source: string): Token[] {
  const scanner = new Scanner(source);
  while (scanner.i < source.length) {
    const c = source[scanner.i]!;
    if (c === '\n') {
      scanner.line++;
      scanner.i++;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      scanner.i++;
    } else {
      scanner.begin();
      scanToken(scanner, c);
    }
  }
  return scanner.tokens;
}

/** Reads the token or comment that starts with the character c. */
function scanToken(scanner: Scanner, c: string): void {
  const { source, i } = scanner;
  const next = source[i + 1];
  if (c === "'" || c === ';' || (c === '/' && next === '/')) scanner.skipLine();
  else if (c === '/' && next === '*') scanBlockComment(scanner);
  else if (
    IDENT_START.test(c) ||
    (c >= '\ud800' && c <= '\udbff' && IDENT_START.test(String.fromCodePoint(source.codePointAt(i)!)))
  )
    scanWord(scanner);
  else if ((c >= '0' && c <= '9') || (c === '.' && /[0-9]/.test(next ?? ''))) scanNumber(scanner);
  else if (c === '"') scanString(scanner);
  else if (c === '`') scanRawString(scanner);
  else scanOperator(scanner);
}

/** `/* … *\/`, which may span lines; unterminated, it is a bad token to the end of the source. */
function scanBlockComment(scanner: Scanner): void {
  const { source } = scanner;
  const end = source.indexOf('*/', scanner.i + 2);
  if (end < 0) {
    scanner.i = source.length;
    scanner.push('bad', 'unterminated /* comment');
    return;
  }
  for (let j = scanner.i; j < end; j++) if (source[j] === '\n') scanner.line++;
  scanner.i = end + 2;
}

/** An identifier or keyword; the word REM discards the rest of its line. */
function scanWord(scanner: Scanner): void {
  const { source } = scanner;
  const start = scanner.i;
  do scanner.i += source.codePointAt(scanner.i)! > 0xffff ? 2 : 1;
  while (scanner.i < source.length && IDENT_PART.test(String.fromCodePoint(source.codePointAt(scanner.i)!)));
  if (source.slice(start, scanner.i).toUpperCase() === 'REM') scanner.skipLine();
  else scanner.push('ident');
}

/** An integer literal, or a fraction or exponent read whole as a `float` token. */
function scanNumber(scanner: Scanner): void {
  const { source } = scanner;
  const integer = NUMBER.exec(source.slice(scanner.i))?.[0] ?? '';
  scanner.i += integer.length;
  const isHex = /^0[xX]/.test(integer);
  if (source[scanner.i] === '.' || (!isHex && (source[scanner.i] === 'e' || source[scanner.i] === 'E'))) {
    scanner.i++;
    while (
      scanner.i < source.length &&
      /[0-9_a-zA-Z.+-]/.test(source[scanner.i]!) &&
      !(/[+-]/.test(source[scanner.i]!) && !/[eE]/.test(source[scanner.i - 1]!))
    )
      scanner.i++;
    scanner.push('float');
    return;
  }
  const value = parseIntegerLiteral(integer);
  scanner.push(typeof value === 'bigint' ? 'int' : 'bad', value);
}

/** A `"…"` literal with Go-style escapes, on one line. */
function scanString(scanner: Scanner): void {
  const { source } = scanner;
  const start = scanner.i;
  scanner.i++;
  while (scanner.i < source.length && source[scanner.i] !== '"' && source[scanner.i] !== '\n')
    scanner.i += source[scanner.i] === '\\' && source[scanner.i + 1] !== '\n' ? 2 : 1;
  if (source[scanner.i] !== '"') {
    scanner.push('bad', 'unterminated string literal');
    return;
  }
  scanner.i++;
  const value = unquote(source.slice(start + 1, scanner.i - 1));
  if (typeof value === 'string') scanner.push('string', value);
  else scanner.push('bad', value.error);
}

/** A `` `…` `` raw literal, which may span lines (CRs dropped). */
function scanRawString(scanner: Scanner): void {
  const { source } = scanner;
  const end = source.indexOf('`', scanner.i + 1);
  if (end < 0) {
    scanner.i = source.length;
    scanner.push('bad', 'unterminated raw string literal');
    return;
  }
  const body = source.slice(scanner.i + 1, end);
  for (const ch of body) if (ch === '\n') scanner.line++;
  scanner.i = end + 1;
  scanner.push('string', utf8ByteString(body.replace(/\r/g, '')));
}

/** An operator or other punctuation: two characters when they form one of TWO_CHAR_OPS. */
function scanOperator(scanner: Scanner): void {
  const { source, i } = scanner;
  const two = source.slice(i, i + 2);
  scanner.i += TWO_CHAR_OPS.has(two) ? 2 : source.codePointAt(i)! > 0xffff ? 2 : 1;
  scanner.push('op');
}
