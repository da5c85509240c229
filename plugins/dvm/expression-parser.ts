/**
 * Expressions (docs/contracts.md § Operators): literals, variables, parentheses, calls, unary `!` and `^`, and binary operators
 * with Go's precedence (all left-associative):
 *   5: * / % << >> & &^    4: + - | ^    3: == != <> < <= > >=    2: &&    1: ||
 * There is no unary minus and there are no negative or fractional literals. Parsing happens once, at install.
 */
import { UmbraError } from '../../core-native/ts/errors.js';
import { ContractErrorCode } from '../../host/services/contract-vm.js';
import type { Token } from './lexer.js';

export type BinaryOp =
  | '*'
  | '/'
  | '%'
  | '<<'
  | '>>'
  | '&'
  | '&^'
  | '+'
  | '-'
  | '|'
  | '^'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | '&&'
  | '||';

export type Expr =
  | { readonly kind: 'int'; readonly value: bigint }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'var'; readonly name: string }
  | { readonly kind: 'paren'; readonly inner: Expr }
  | { readonly kind: 'unary'; readonly op: '!' | '^'; readonly operand: Expr }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly Expr[] };

const PRECEDENCE: Readonly<Record<string, number>> = {
  '*': 5,
  '/': 5,
  '%': 5,
  '<<': 5,
  '>>': 5,
  '&': 5,
  '&^': 5,
  '+': 4,
  '-': 4,
  '|': 4,
  '^': 4,
  '==': 3,
  '!=': 3,
  '<>': 3,
  '<': 3,
  '<=': 3,
  '>': 3,
  '>=': 3,
  '&&': 2,
  '||': 1,
};
/** Nesting deeper than this is rejected at install (it would only serve to exhaust the interpreter's stack). */
const MAX_DEPTH = 64;

/** An expression or statement that does not compile; the compiler adds the function and line. */
export class ExpressionError extends UmbraError<ContractErrorCode> {
  override readonly name = 'ExpressionError';
  constructor(message: string) {
    super(ContractErrorCode.DoesNotCompile, message);
  }
}

/** Parses tokens[from, to) as one expression. */
export function parseExpression(tokens: readonly Token[], from = 0, to = tokens.length): Expr {
  let pos = from;
  const peek = (): Token | undefined => (pos < to ? tokens[pos] : undefined);
  const describe = (token: Token | undefined): string => (token ? JSON.stringify(token.text) : 'the end of the line');

  function binary(minPrecedence: number, depth: number): Expr {
    let left = unary(depth);
    for (;;) {
      const token = peek();
      const precedence = token?.kind === 'op' ? PRECEDENCE[token.text] : undefined;
      if (precedence === undefined || precedence < minPrecedence) return left;
      pos++;
      const right = binary(precedence + 1, depth + 1);
      const op = (token!.text === '<>' ? '!=' : token!.text) as BinaryOp;
      left = { kind: 'binary', op, left, right };
    }
  }

  function unary(depth: number): Expr {
    if (depth > MAX_DEPTH) throw new ExpressionError(`expression nested deeper than ${MAX_DEPTH} levels`);
    const token = peek();
    if (token?.kind === 'op' && (token.text === '!' || token.text === '^')) {
      pos++;
      return { kind: 'unary', op: token.text, operand: unary(depth + 1) };
    }
    if (token?.kind === 'op' && (token.text === '-' || token.text === '+')) {
      throw new ExpressionError(`unary ${token.text} is not supported (there are no negative numbers; write 0 - x)`);
    }
    return primary(depth);
  }

  function primary(depth: number): Expr {
    const token = peek();
    if (!token) throw new ExpressionError('expected a value, found the end of the line');
    pos++;
    switch (token.kind) {
      case 'int':
        return { kind: 'int', value: token.value as bigint };
      case 'string':
        return { kind: 'string', value: token.value as string };
      case 'float':
        throw new ExpressionError(`fractional number ${token.text} is not supported (only Uint64 integers)`);
      case 'ident': {
        if (peek()?.text !== '(') return { kind: 'var', name: token.text };
        pos++;
        const args: Expr[] = [];
        if (peek()?.text === ')') {
          pos++;
          return { kind: 'call', name: token.text, args };
        }
        for (;;) {
          args.push(binary(1, depth + 1));
          const next = peek();
          pos++;
          if (next?.text === ')') return { kind: 'call', name: token.text, args };
          if (next?.text !== ',')
            throw new ExpressionError(`expected , or ) in the call of ${token.text}, found ${describe(next)}`);
        }
      }
      default:
        if (token.text === '(') {
          const inner = binary(1, depth + 1);
          const close = peek();
          if (close?.text !== ')') throw new ExpressionError(`expected ), found ${describe(close)}`);
          pos++;
          return { kind: 'paren', inner };
        }
        throw new ExpressionError(`expected a value, found ${describe(token)}`);
    }
  }

  const expr = binary(1, 0);
  if (pos < to) throw new ExpressionError(`unexpected ${describe(tokens[pos])} after the expression`);
  return expr;
}
