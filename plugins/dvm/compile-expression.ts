/**
 * Turns a parsed expression into a closure over a frame, and adds up its static cost: every node evaluated is one
 * evaluation, every binary operator 800 compute gas, every built-in call its own gas. Because both sides of every
 * operator are always evaluated, these totals are known at install time and the interpreter charges them once per
 * line; user-function calls charge their own lines when they run.
 */
import type { DvmValue } from '../../protocol/contract-values.js';
import type { Builtin } from './builtins/builtin.js';
import { BUILTINS } from './builtins/index.js';
import { ContractPanic, type ExecutionState } from './execution-state.js';
import { ExpressionError, type Expr } from './expression-parser.js';
import { OPERATOR_GAS } from './limits.js';
import { BINARY_OPERATORS, unaryOperator } from './operators.js';
import type { DvmType } from './structure.js';

export interface Frame {
  readonly locals: (DvmValue | undefined)[];
  readonly state: ExecutionState;
  /** Set by RETURN. */
  result: DvmValue | undefined;
}

export type Evaluate = (frame: Frame) => DvmValue | undefined;

export interface StaticCost {
  gas: number;
  evaluations: number;
}

/** A user function as callers see it; `invoke` is bound once every function of the contract is compiled. */
export interface CallTarget {
  readonly name: string;
  readonly params: readonly { name: string; type: DvmType }[];
  invoke(args: (DvmValue | undefined)[], state: ExecutionState): DvmValue | undefined;
}

export interface ExpressionScope {
  /** The local slot of a name (parameter or DIM), or undefined when the function never declares it. */
  slot(name: string): number | undefined;
  target(name: string): CallTarget | undefined;
}

const typeOf = (value: DvmValue | undefined): DvmType | 'no value' =>
  value === undefined ? 'no value' : typeof value === 'bigint' ? 'Uint64' : 'String';

function compileBuiltin(builtin: Builtin, args: Evaluate[]): Evaluate {
  const call = builtin.call;
  if (builtin.unevaluatedArgs) return (f) => call(f.state, []);
  switch (args.length) {
    case 0:
      return (f) => call(f.state, []);
    case 1: {
      const [a] = args;
      return (f) => call(f.state, [a!(f)]);
    }
    case 2: {
      const [a, b] = args;
      return (f) => call(f.state, [a!(f), b!(f)]);
    }
    default:
      return (f) =>
        call(
          f.state,
          args.map((arg) => arg(f)),
        );
  }
}

function compileUserCall(target: CallTarget, args: Evaluate[]): Evaluate {
  const { params, name } = target;
  return (f) => {
    const values = args.map((arg) => arg(f));
    for (let i = 0; i < params.length; i++) {
      const param = params[i]!;
      if (typeOf(values[i]) !== param.type) {
        throw new ContractPanic(`${name}: parameter ${param.name} must be a ${param.type}, got ${typeOf(values[i])}`);
      }
    }
    return target.invoke(values, f.state);
  };
}

export function compileExpression(expr: Expr, scope: ExpressionScope, cost: StaticCost): Evaluate {
  cost.evaluations++;
  switch (expr.kind) {
    case 'int':
    case 'string': {
      const value = expr.value;
      return () => value;
    }
    case 'var': {
      const slot = scope.slot(expr.name);
      if (slot === undefined)
        throw new ExpressionError(`${expr.name} is not declared (DIM ${expr.name} AS Uint64|String, or a parameter)`);
      const name = expr.name;
      return (f) => {
        const value = f.locals[slot];
        if (value === undefined) throw new ContractPanic(`${name} is used before its DIM`);
        return value;
      };
    }
    case 'paren':
      return compileExpression(expr.inner, scope, cost);
    case 'unary': {
      const operand = compileExpression(expr.operand, scope, cost);
      const op = expr.op;
      return (f) => unaryOperator(op, operand(f));
    }
    case 'binary': {
      cost.gas += OPERATOR_GAS;
      const left = compileExpression(expr.left, scope, cost);
      const right = compileExpression(expr.right, scope, cost);
      const apply = BINARY_OPERATORS[expr.op];
      return (f) => apply(left(f), right(f));
    }
    case 'call': {
      const builtin = BUILTINS.get(expr.name.toLowerCase());
      if (builtin) {
        cost.gas += builtin.gas;
        const count = expr.args.length;
        if (count < builtin.minArgs || count > builtin.maxArgs) {
          const expected =
            builtin.minArgs === builtin.maxArgs ? `${builtin.minArgs}` : `${builtin.minArgs} or ${builtin.maxArgs}`;
          throw new ExpressionError(
            `${builtin.name} takes ${expected} argument${expected === '1' ? '' : 's'}, got ${count}`,
          );
        }
        const args = builtin.unevaluatedArgs ? [] : expr.args.map((arg) => compileExpression(arg, scope, cost));
        return compileBuiltin(builtin, args);
      }
      const target = scope.target(expr.name);
      if (!target) throw new ExpressionError(`unknown function ${expr.name}`);
      if (expr.args.length !== target.params.length) {
        throw new ExpressionError(
          `${expr.name} takes ${target.params.length} argument${target.params.length === 1 ? '' : 's'}, got ${expr.args.length}`,
        );
      }
      return compileUserCall(
        target,
        expr.args.map((arg) => compileExpression(arg, scope, cost)),
      );
    }
  }
}
