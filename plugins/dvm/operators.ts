/**
 * Operator semantics (docs/contracts.md § Operators). Uint64 arithmetic wraps modulo 2^64; `/` and `%` by zero fail;
 * shifts by 64 or more give 0; comparisons give 1 or 0; `&&` and `||` give 1 or 0 from truthiness (Uint64 ≠ 0,
 * String ≠ "") and, as in the reference, both sides are always evaluated. Strings support `+`, `==` and `!=`.
 * `+` between a String and a Uint64 concatenates the number's decimal text (either order; the reference accepts
 * only String + Uint64, and then under any operator, which we reject). Unary `!` and `^` are bitwise NOT on Uint64;
 * `!` on a String is 1 for "" and 0 otherwise.
 */
import type { DvmValue } from '../../protocol/contract-values.js';
import { ContractPanic } from './execution-state.js';
import type { BinaryOp } from './expression-parser.js';
import { MAX_STRING_BYTES, UINT64_MASK } from './limits.js';

type Operand = DvmValue | undefined;
export type BinaryFn = (a: Operand, b: Operand) => DvmValue;

const typeName = (value: Operand): string =>
  value === undefined ? 'no value' : typeof value === 'bigint' ? 'Uint64' : 'String';

function concat(a: string, b: string): string {
  if (a.length + b.length >= MAX_STRING_BYTES)
    throw new ContractPanic(`string longer than ${MAX_STRING_BYTES - 1} bytes`);
  return a + b;
}

function mismatch(op: string, a: Operand, b: Operand): never {
  throw new ContractPanic(`operator ${op} does not apply to ${typeName(a)} and ${typeName(b)}`);
}

/** An operator on two Uint64s only. */
function numeric(op: string, fn: (a: bigint, b: bigint) => bigint): BinaryFn {
  return (a, b) => (typeof a === 'bigint' && typeof b === 'bigint' ? fn(a, b) : mismatch(op, a, b));
}

/** ==, != : on two values of one type. */
function equality(negate: boolean): BinaryFn {
  return (a, b) => {
    if (a === undefined || b === undefined || typeof a !== typeof b) return mismatch(negate ? '!=' : '==', a, b);
    return (a === b) !== negate ? 1n : 0n;
  };
}

function logical(op: '&&' | '||'): BinaryFn {
  return (a, b) => {
    if (a === undefined || b === undefined || typeof a !== typeof b) return mismatch(op, a, b);
    const left = typeof a === 'bigint' ? a !== 0n : a !== '';
    const right = typeof b === 'bigint' ? b !== 0n : b !== '';
    return (op === '&&' ? left && right : left || right) ? 1n : 0n;
  };
}

const add: BinaryFn = (a, b) => {
  if (typeof a === 'bigint' && typeof b === 'bigint') return (a + b) & UINT64_MASK;
  if (typeof a === 'string' && typeof b === 'string') return concat(a, b);
  if (typeof a === 'string' && typeof b === 'bigint') return concat(a, b.toString());
  if (typeof a === 'bigint' && typeof b === 'string') return concat(a.toString(), b);
  return mismatch('+', a, b);
};

export const BINARY_OPERATORS: Readonly<Record<BinaryOp, BinaryFn>> = {
  '+': add,
  '-': numeric('-', (a, b) => (a - b) & UINT64_MASK),
  '*': numeric('*', (a, b) => (a * b) & UINT64_MASK),
  '/': numeric('/', (a, b) => {
    if (b === 0n) throw new ContractPanic('division by zero');
    return a / b;
  }),
  '%': numeric('%', (a, b) => {
    if (b === 0n) throw new ContractPanic('modulo by zero');
    return a % b;
  }),
  '&': numeric('&', (a, b) => a & b),
  '|': numeric('|', (a, b) => a | b),
  '^': numeric('^', (a, b) => a ^ b),
  '&^': numeric('&^', (a, b) => a & ~b & UINT64_MASK),
  '<<': numeric('<<', (a, b) => (b >= 64n ? 0n : (a << b) & UINT64_MASK)),
  '>>': numeric('>>', (a, b) => (b >= 64n ? 0n : a >> b)),
  '<': numeric('<', (a, b) => (a < b ? 1n : 0n)),
  '<=': numeric('<=', (a, b) => (a <= b ? 1n : 0n)),
  '>': numeric('>', (a, b) => (a > b ? 1n : 0n)),
  '>=': numeric('>=', (a, b) => (a >= b ? 1n : 0n)),
  '==': equality(false),
  '!=': equality(true),
  '&&': logical('&&'),
  '||': logical('||'),
};

export function unaryOperator(op: '!' | '^', value: Operand): DvmValue {
  if (typeof value === 'bigint') return value ^ UINT64_MASK;
  if (op === '!' && typeof value === 'string') return value === '' ? 1n : 0n;
  throw new ContractPanic(`operator ${op} does not apply to ${typeName(value)}`);
}
