/**
 * The rule book of a contract transaction's shape (docs/contracts.md § Where Umbra differs from the reference): what
 * its `sc_rpc` arguments ask for, which functions may be called from outside, what an install needs. Every refusal is
 * a TransactionError worded once, whoever asks — the pool, a block, NODE.GetGasEstimate, the VM, `umbra contract run`
 * — so a trial and the chain never disagree on why a call cannot run.
 */
import type { RpcArgument } from './rpc-arguments.js';
import { TransactionError, TransactionErrorCode } from './transaction-errors.js';

/** What a contract transaction asks for: install `code`, or call `entrypoint` of the contract `scid` (64 hex). */
export type ContractAction =
  | { readonly install: true; readonly code: string }
  | { readonly install: false; readonly scid: string; readonly entrypoint: string };

/** A function of a compiled contract, as far as the rules look at it. */
export interface CallableFunction {
  readonly name: string;
  /** Whether transactions (and other contracts) may call it: its name starts with an upper-case letter. */
  readonly exported: boolean;
}

/** Where the VM found code that does not compile. */
export interface CompileFailure {
  readonly message: string;
  readonly functionName: string | undefined;
  /** The BASIC line number, when inside a function's body. */
  readonly line: bigint | undefined;
  /** The 1-based line of the source file. */
  readonly sourceLine: number;
}

const argument = (args: readonly RpcArgument[], name: string, datatype: RpcArgument['datatype']) =>
  args.find((a) => a.name === name && a.datatype === datatype)?.value;

const badArguments = (message: string) => new TransactionError(TransactionErrorCode.BadContractArguments, message);

/** Reads the action of a contract transaction's arguments; throws a TransactionError naming what is missing. */
export function contractAction(args: readonly RpcArgument[]): ContractAction {
  const action = argument(args, 'SC_ACTION', 'U');
  if (action === 1n) {
    const code = argument(args, 'SC_CODE', 'S') as string | undefined;
    if (!code) throw badArguments('an install needs the contract source in SC_CODE (datatype S)');
    return { install: true, code };
  }
  if (action !== 0n) throw badArguments('SC_ACTION (datatype U) must be 0 (call) or 1 (install)');
  const scid = argument(args, 'SC_ID', 'H') as string | undefined;
  const entrypoint = argument(args, 'entrypoint', 'S') as string | undefined;
  if (!scid || !entrypoint) throw badArguments('a call needs SC_ID (datatype H) and entrypoint (datatype S)');
  return { install: false, scid: scid.toLowerCase(), entrypoint };
}

/**
 * Why `name` cannot be called from outside `contract` (its name in the message: `contract <SCID>`, `the
 * contract`), or undefined when it is an entry point.
 */
export function entryPointRefusal(
  functions: ReadonlyMap<string, CallableFunction>,
  name: string,
  contract: string,
): TransactionError | undefined {
  const fn = functions.get(name);
  if (fn?.exported) return undefined;
  if (fn)
    return new TransactionError(
      TransactionErrorCode.NotExported,
      `${name} is private: only functions whose name starts with a capital letter are entry points`,
    );
  const entryPoints = [...functions.values()].filter((f) => f.exported).map((f) => f.name);
  return new TransactionError(
    TransactionErrorCode.UnknownFunction,
    `${contract} has no function ${name} (entry points: ${entryPoints.join(', ') || 'none'})`,
  );
}

/** The function an install runs; throws when the contract has none. */
export function requireInitializer(initializer: string | undefined): string {
  if (initializer === undefined)
    throw new TransactionError(
      TransactionErrorCode.NoInitializer,
      'the contract has no Initialize or InitializePrivate function',
    );
  return initializer;
}

/** A compile failure in words: where (function and line), what, and the source file's line. */
export function compileFailureText(failure: CompileFailure): string {
  const line = failure.line === undefined ? '' : ` line ${failure.line}`;
  const where = failure.functionName ? `${failure.functionName}${line}: ` : '';
  return `${where}${failure.message} (source line ${failure.sourceLine})`;
}

/** The refusal of `contract` (as in entryPointRefusal) whose code does not compile. */
export function compileRefusal(contract: string, failure: CompileFailure): TransactionError {
  return new TransactionError(
    TransactionErrorCode.ContractDoesNotCompile,
    `${contract} does not compile: ${compileFailureText(failure)}`,
  );
}

export const noContractVm = (): TransactionError =>
  new TransactionError(
    TransactionErrorCode.NoContractVm,
    'this node runs without the contract VM (add the dvm plugin)',
  );

export const unknownContract = (scid: string): TransactionError =>
  new TransactionError(TransactionErrorCode.UnknownContract, `there is no contract ${scid}`);

export const contractExists = (scid: string): TransactionError =>
  new TransactionError(TransactionErrorCode.ContractExists, `contract ${scid} already exists`);
