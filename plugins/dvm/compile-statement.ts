/**
 * Statements (docs/contracts.md § Statements): DIM, LET, GOTO, IF … THEN GOTO … [ELSE GOTO …], RETURN, PRINT/PRINTF (no-ops),
 * and call statements. Each line compiles to a closure that returns where to go next, with its static cost.
 * Everything that can be checked without running is checked here, at install: syntax, declared names, jump
 * targets, argument counts. (The reference checks a line only when it runs.)
 */
import type { DvmValue } from '../../protocol/contract-values.js';
import { compileExpression, type ExpressionScope, type Frame, type StaticCost } from './compile-expression.js';
import { ContractPanic } from './execution-state.js';
import { ExpressionError, parseExpression } from './expression-parser.js';
import type { Token } from './lexer.js';
import { LINE_GAS } from './limits.js';
import { parseType, type DvmType } from './structure.js';

/** Go on with the next line. */
export const NEXT = -1;
/** The frame returned (its value is in frame.result). */
export const RETURNED = -2;

export interface CompiledLine {
  readonly label: bigint;
  readonly sourceLine: number;
  /** A label-only line: counted, but free and never limited. */
  readonly empty: boolean;
  readonly gas: number;
  readonly evaluations: number;
  /** NEXT, RETURNED, or the index of the line to jump to. */
  readonly run: (frame: Frame) => number;
}

export interface StatementScope extends ExpressionScope {
  readonly functionName: string;
  readonly returns: DvmType | undefined;
  /** The index of a line of this function; throws ExpressionError when there is none. */
  lineIndex(label: bigint): number;
}

const isWord = (token: Token | undefined, word: string): boolean =>
  token?.kind === 'ident' && token.text.toLowerCase() === word;
const typeOf = (value: DvmValue | undefined): string =>
  value === undefined ? 'no value' : typeof value === 'bigint' ? 'Uint64' : 'String';

/** The names a DIM declares and their type, or an ExpressionError saying what is wrong. */
export function dimDeclaration(tokens: readonly Token[]): { names: string[]; type: DvmType } {
  const as = tokens.length - 2;
  const type = parseType(tokens[tokens.length - 1]);
  if (tokens.length < 4 || !isWord(tokens[as], 'as') || !type)
    throw new ExpressionError('DIM needs: DIM name[, name…] AS Uint64|String');
  const names: string[] = [];
  for (const token of tokens.slice(1, as)) {
    if (token.text === ',') continue;
    if (token.kind !== 'ident' || !/^\p{L}/u.test(token.text))
      throw new ExpressionError(`DIM: ${JSON.stringify(token.text)} is not a variable name`);
    if (names.includes(token.text)) throw new ExpressionError(`DIM: ${token.text} is named twice`);
    names.push(token.text);
  }
  if (names.length === 0) throw new ExpressionError('DIM needs at least one variable name');
  return { names, type };
}

function jumpTarget(token: Token | undefined, scope: StatementScope): number {
  if (token?.kind !== 'int')
    throw new ExpressionError(`expected a line number, found ${token ? JSON.stringify(token.text) : 'nothing'}`);
  return scope.lineIndex(token.value as bigint);
}

function compileDim(tokens: readonly Token[], scope: StatementScope): (frame: Frame) => number {
  const { names, type } = dimDeclaration(tokens);
  const slots = names.map((name) => scope.slot(name)!);
  const initial: DvmValue = type === 'Uint64' ? 0n : '';
  return (f) => {
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      if (f.locals[slot] !== undefined)
        throw new ContractPanic(`${names[i]} is already declared (a DIM ran twice, or names a parameter)`);
      f.locals[slot] = initial;
    }
    return NEXT;
  };
}

function compileLet(tokens: readonly Token[], scope: StatementScope, cost: StaticCost): (frame: Frame) => number {
  const target = tokens[1];
  if (tokens.length < 4 || target?.kind !== 'ident' || tokens[2]?.text !== '=')
    throw new ExpressionError('LET needs: LET name = expression');
  const slot = scope.slot(target.text);
  if (slot === undefined)
    throw new ExpressionError(`LET: ${target.text} is not declared (DIM ${target.text} AS Uint64|String)`);
  const value = compileExpression(parseExpression(tokens, 3), scope, cost);
  const name = target.text;
  return (f) => {
    const current = f.locals[slot];
    if (current === undefined) throw new ContractPanic(`LET: ${name} is used before its DIM`);
    const next = value(f);
    if (typeof next !== typeof current)
      throw new ContractPanic(`LET: ${name} is a ${typeOf(current)}, the value is ${typeOf(next)}`);
    f.locals[slot] = next;
    return NEXT;
  };
}

function compileIf(tokens: readonly Token[], scope: StatementScope, cost: StaticCost): (frame: Frame) => number {
  const n = tokens.length;
  const usage = 'IF needs: IF condition THEN GOTO line [ELSE GOTO line]';
  let thenAt: number;
  let elseIndex: number | undefined;
  if (n >= 5 && isWord(tokens[n - 3], 'then') && isWord(tokens[n - 2], 'goto')) thenAt = n - 3;
  else if (
    n >= 8 &&
    isWord(tokens[n - 6], 'then') &&
    isWord(tokens[n - 5], 'goto') &&
    isWord(tokens[n - 3], 'else') &&
    isWord(tokens[n - 2], 'goto')
  ) {
    thenAt = n - 6;
    elseIndex = jumpTarget(tokens[n - 1], scope);
  } else throw new ExpressionError(usage);
  const thenIndex = jumpTarget(tokens[thenAt + 2], scope);
  const condition = compileExpression(parseExpression(tokens, 1, thenAt), scope, cost);
  const otherwise = elseIndex ?? NEXT;
  return (f) => {
    const value = condition(f);
    if (typeof value !== 'bigint') throw new ContractPanic(`IF: the condition must be a Uint64, got ${typeOf(value)}`);
    return value !== 0n ? thenIndex : otherwise;
  };
}

function compileReturn(tokens: readonly Token[], scope: StatementScope, cost: StaticCost): (frame: Frame) => number {
  const { returns, functionName } = scope;
  if (!returns) {
    if (tokens.length > 1) throw new ExpressionError(`${functionName} has no return type: RETURN takes no value`);
    return (f) => {
      f.result = undefined;
      return RETURNED;
    };
  }
  if (tokens.length === 1) throw new ExpressionError(`${functionName} returns a ${returns}: RETURN needs a value`);
  const value = compileExpression(parseExpression(tokens, 1), scope, cost);
  const expected = returns === 'Uint64' ? 'bigint' : 'string';
  return (f) => {
    const result = value(f);
    if (typeof result !== expected)
      throw new ContractPanic(`${functionName} must return a ${returns}, got ${typeOf(result)}`);
    f.result = result;
    return RETURNED;
  };
}

function compileCallStatement(
  tokens: readonly Token[],
  scope: StatementScope,
  cost: StaticCost,
): (frame: Frame) => number {
  const expr = parseExpression(tokens);
  if (expr.kind !== 'call')
    throw new ExpressionError(
      `${JSON.stringify(tokens[0]!.text)} is not a statement (DIM, LET, GOTO, IF, RETURN) or a function call`,
    );
  const call = compileExpression(expr, scope, cost);
  return (f) => {
    call(f);
    return NEXT;
  };
}

function compileBody(tokens: readonly Token[], scope: StatementScope, cost: StaticCost): (frame: Frame) => number {
  const first = tokens[0]!;
  const keyword = first.kind === 'ident' ? first.text.toLowerCase() : '';
  switch (keyword) {
    case 'dim':
      return compileDim(tokens, scope);
    case 'let':
      return compileLet(tokens, scope, cost);
    case 'goto': {
      if (tokens.length !== 2) throw new ExpressionError('GOTO needs exactly one line number');
      const index = jumpTarget(tokens[1], scope);
      return () => index;
    }
    case 'if':
      return compileIf(tokens, scope, cost);
    case 'return':
      return compileReturn(tokens, scope, cost);
    case 'print':
    case 'printf':
      return () => NEXT;
    default:
      return compileCallStatement(tokens, scope, cost);
  }
}

export function compileLine(
  label: bigint,
  sourceLine: number,
  tokens: readonly Token[],
  scope: StatementScope,
): CompiledLine {
  if (tokens.length === 0) return { label, sourceLine, empty: true, gas: 0, evaluations: 0, run: () => NEXT };
  const cost: StaticCost = { gas: LINE_GAS, evaluations: 0 };
  const run = compileBody(tokens, scope, cost);
  return { label, sourceLine, empty: false, gas: cost.gas, evaluations: cost.evaluations, run };
}
