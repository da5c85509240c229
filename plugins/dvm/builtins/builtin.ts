/**
 * The shape of a built-in function (docs/contracts.md § Built-in functions) and the
 * argument checks they share. Names are matched case-insensitively; the gas is charged whenever the call is
 * reached (the compiler folds it into the line's cost). A wrong argument count is an install-time error.
 */
import type { DvmValue } from '../../../protocol/contract-values.js';
import { ContractPanic, type ExecutionState } from '../execution-state.js';

/** An argument as evaluated: undefined is the "no value" of a function without a return type. */
export type Argument = DvmValue | undefined;

export interface Builtin {
  /** The canonical (upper-case) name. */
  readonly name: string;
  readonly gas: number;
  readonly minArgs: number;
  readonly maxArgs: number;
  /** PANIC ignores its arguments: they are not evaluated. */
  readonly unevaluatedArgs?: boolean;
  call(state: ExecutionState, args: readonly Argument[]): DvmValue;
}

const typeName = (value: Argument): string =>
  value === undefined ? 'no value' : typeof value === 'bigint' ? 'Uint64' : 'String';

export function uintArg(builtin: string, args: readonly Argument[], index: number): bigint {
  const value = args[index];
  if (typeof value !== 'bigint')
    throw new ContractPanic(`${builtin}: argument ${index + 1} must be a Uint64, got ${typeName(value)}`);
  return value;
}

export function stringArg(builtin: string, args: readonly Argument[], index: number): string {
  const value = args[index];
  if (typeof value !== 'string')
    throw new ContractPanic(`${builtin}: argument ${index + 1} must be a String, got ${typeName(value)}`);
  return value;
}

/** A storage or memory key or value: Uint64 or String. */
export function valueArg(builtin: string, args: readonly Argument[], index: number): DvmValue {
  const value = args[index];
  if (value === undefined)
    throw new ContractPanic(`${builtin}: argument ${index + 1} has no value (a function without a return type)`);
  return value;
}

/** A 32-byte asset id given as raw bytes. */
export function assetArg(builtin: string, args: readonly Argument[], index: number): string {
  const asset = stringArg(builtin, args, index);
  if (asset.length !== 32)
    throw new ContractPanic(
      `${builtin}: an asset id is 32 raw bytes (e.g. SCID() or an H argument), got ${asset.length} bytes`,
    );
  return asset;
}

export const fixed = (count: number): Pick<Builtin, 'minArgs' | 'maxArgs'> => ({ minArgs: count, maxArgs: count });
