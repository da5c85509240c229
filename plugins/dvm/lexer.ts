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

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  /** Skips to the end of the current physical line (comments, REM, `;`). */
  const skipLine = (): void => {
    while (i < source.length && source[i] !== '\n') i++;
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    const start = i;
    const startLine = line;
    const push = (kind: TokenKind, value?: bigint | string): void => {
      tokens.push({ kind, text: source.slice(start, i), line: startLine, value });
    };
    if (c === "'" || c === ';' || (c === '/' && source[i + 1] === '/')) {
      skipLine();
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) {
        i = source.length;
        push('bad', 'unterminated /* comment');
        continue;
      }
      for (let j = i; j < end; j++) if (source[j] === '\n') line++;
      i = end + 2;
      continue;
    }
    if (
      IDENT_START.test(c) ||
      (c >= '\ud800' && c <= '\udbff' && IDENT_START.test(String.fromCodePoint(source.codePointAt(i)!)))
    ) {
      do i += source.codePointAt(i)! > 0xffff ? 2 : 1;
      while (i < source.length && IDENT_PART.test(String.fromCodePoint(source.codePointAt(i)!)));
      if (source.slice(start, i).toUpperCase() === 'REM') {
        skipLine();
        continue;
      }
      push('ident');
      continue;
    }
    if ((c >= '0' && c <= '9') || (c === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      const integer = NUMBER.exec(source.slice(i))?.[0] ?? '';
      i += integer.length;
      const isHex = /^0[xX]/.test(integer);
      if (source[i] === '.' || (!isHex && (source[i] === 'e' || source[i] === 'E'))) {
        i++;
        while (
          i < source.length &&
          /[0-9_a-zA-Z.+-]/.test(source[i]!) &&
          !(/[+-]/.test(source[i]!) && !/[eE]/.test(source[i - 1]!))
        )
          i++;
        push('float');
        continue;
      }
      const value = parseIntegerLiteral(integer);
      push(typeof value === 'bigint' ? 'int' : 'bad', value);
      continue;
    }
    if (c === '"') {
      i++;
      while (i < source.length && source[i] !== '"' && source[i] !== '\n')
        i += source[i] === '\\' && source[i + 1] !== '\n' ? 2 : 1;
      if (source[i] !== '"') {
        push('bad', 'unterminated string literal');
        continue;
      }
      i++;
      const value = unquote(source.slice(start + 1, i - 1));
      if (typeof value === 'string') push('string', value);
      else push('bad', value.error);
      continue;
    }
    if (c === '`') {
      const end = source.indexOf('`', i + 1);
      if (end < 0) {
        i = source.length;
        push('bad', 'unterminated raw string literal');
        continue;
      }
      const body = source.slice(i + 1, end);
      for (const ch of body) if (ch === '\n') line++;
      i = end + 1;
      push('string', utf8ByteString(body.replace(/\r/g, '')));
      continue;
    }
    const two = source.slice(i, i + 2);
    i += TWO_CHAR_OPS.has(two) ? 2 : source.codePointAt(i)! > 0xffff ? 2 : 1;
    push('op');
  }
  return tokens;
}
