/**
 * Source → compiled contract, once, at install: tokens, structure, then every line of every function compiled to
 * closures with local variables resolved to slots (parameters first, then every name a DIM of the function
 * declares). Compile errors name the function, the line number and the source line.
 */
import {
  ContractCompileError,
  type CompiledContract,
  type FunctionSignature,
} from '../../host/services/contract-vm.js';
import type { DvmValue } from '../../protocol/contract-values.js';
import type { CallTarget, ExpressionScope } from './compile-expression.js';
import { compileLine, dimDeclaration, type CompiledLine, type StatementScope } from './compile-statement.js';
import type { ExecutionState } from './execution-state.js';
import { ExpressionError } from './expression-parser.js';
import { runFunction } from './interpreter.js';
import { tokenize } from './lexer.js';
import { parseStructure, type FunctionSource } from './structure.js';

export interface CompiledFunction extends CallTarget, FunctionSignature {
  readonly lines: readonly CompiledLine[];
  readonly slotCount: number;
}

export interface CompiledProgram extends CompiledContract {
  readonly runtime: ReadonlyMap<string, CompiledFunction>;
}

/** Exported (callable by the chain) functions start with an ASCII upper-case letter. */
const isExported = (name: string): boolean => /^[A-Z]/.test(name);

function localSlots(fn: FunctionSource): Map<string, number> {
  const slots = new Map<string, number>();
  fn.params.forEach((param, i) => slots.set(param.name, i));
  for (const line of fn.lines) {
    const first = line.tokens[0];
    if (first?.kind !== 'ident' || first.text.toLowerCase() !== 'dim') continue;
    let names: string[];
    try {
      names = dimDeclaration(line.tokens).names;
    } catch (error) {
      throw new ContractCompileError((error as Error).message, fn.name, line.label, line.sourceLine);
    }
    for (const name of names) {
      if (fn.params.some((p) => p.name === name))
        throw new ContractCompileError(
          `DIM ${name}: ${name} is a parameter of ${fn.name}`,
          fn.name,
          line.label,
          line.sourceLine,
        );
      if (!slots.has(name)) slots.set(name, slots.size);
    }
  }
  return slots;
}

export function compileContract(source: string): CompiledProgram {
  const sources = parseStructure(tokenize(source));
  const runtime = new Map<string, CompiledFunction>();
  const targets = new Map<string, CallTarget>();
  for (const fn of sources.values()) {
    targets.set(fn.name, {
      name: fn.name,
      params: fn.params,
      invoke: (args: (DvmValue | undefined)[], state: ExecutionState) =>
        runFunction(runtime.get(fn.name)!, args, state),
    });
  }
  for (const fn of sources.values()) {
    const slots = localSlots(fn);
    const labels = new Map(fn.lines.map((line, index) => [line.label, index]));
    const scope: StatementScope & ExpressionScope = {
      functionName: fn.name,
      returns: fn.returns,
      slot: (name) => slots.get(name),
      target: (name) => targets.get(name),
      lineIndex(label) {
        const index = labels.get(label);
        if (index === undefined) throw new ExpressionError(`there is no line ${label} in ${fn.name}`);
        return index;
      },
    };
    const lines = fn.lines.map((line) => {
      try {
        return compileLine(line.label, line.sourceLine, line.tokens, scope);
      } catch (error) {
        if (error instanceof ExpressionError)
          throw new ContractCompileError(error.message, fn.name, line.label, line.sourceLine);
        throw error;
      }
    });
    if (lines.length === 0)
      throw new ContractCompileError(
        `${fn.name} has no lines (it must end in RETURN)`,
        fn.name,
        undefined,
        fn.sourceLine,
      );
    runtime.set(fn.name, {
      ...targets.get(fn.name)!,
      exported: isExported(fn.name),
      returns: fn.returns,
      lines,
      slotCount: slots.size,
    });
  }
  const functions = new Map<string, FunctionSignature>(
    [...runtime.values()].map(({ name, exported, params, returns }) => [name, { name, exported, params, returns }]),
  );
  const initializer = functions.has('InitializePrivate')
    ? 'InitializePrivate'
    : functions.has('Initialize')
      ? 'Initialize'
      : undefined;
  return { source, functions, runtime, initializer, isPrivate: functions.has('InitializePrivate') };
}
