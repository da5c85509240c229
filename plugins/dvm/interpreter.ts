/**
 * Runs one frame of a compiled function (docs/contracts.md § Statements, § When a call commits): from its first line, one line after another or
 * where a jump says, until RETURN. Each non-empty line is charged (line count, compute gas, evaluations) before it
 * runs. Running past the last line is an error: every path must end in RETURN. A failure is tagged with the
 * innermost function and line where it happened.
 */
import type { DvmValue } from '../../protocol/contract-values.js';
import type { Frame } from './compile-expression.js';
import { NEXT, RETURNED, type CompiledLine } from './compile-statement.js';
import { ContractPanic, type ExecutionState } from './execution-state.js';

export interface RunnableFunction {
  readonly name: string;
  readonly lines: readonly CompiledLine[];
  readonly slotCount: number;
}

export function runFunction(
  fn: RunnableFunction,
  args: readonly (DvmValue | undefined)[],
  state: ExecutionState,
): DvmValue | undefined {
  const lines = fn.lines;
  const frame: Frame = { locals: new Array(fn.slotCount), state, result: undefined };
  for (let i = 0; i < args.length; i++) frame.locals[i] = args[i];
  let index = 0;
  let line: CompiledLine | undefined;
  state.enter();
  try {
    for (;;) {
      line = lines[index];
      if (line === undefined) {
        const last = lines[lines.length - 1];
        throw new ContractPanic(
          last
            ? `execution ran past the last line (${last.label}): every path must end in RETURN`
            : `${fn.name} has no lines`,
        );
      }
      if (line.empty) {
        state.lines++;
        index++;
        continue;
      }
      state.chargeLine(line.gas, line.evaluations);
      const next = line.run(frame);
      if (next === NEXT) index++;
      else if (next === RETURNED) break;
      else index = next;
    }
  } catch (error) {
    if (error instanceof ContractPanic && error.function === undefined) {
      error.function = fn.name;
      error.line = line?.label;
    }
    throw error;
  }
  state.leave();
  return frame.result;
}
