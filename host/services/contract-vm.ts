/**
 * The contract VM service (registered by the `dvm` plugin as `contractVm`) and the interfaces it runs against.
 * The consensus plugin implements `ContractStorage` over a contract's state tree; `umbra contract run` implements
 * it over a JSON store. Nothing here knows about blocks or tries.
 *
 * Values: a contract value is a Uint64 (`bigint`) or a String. Strings are byte strings held in JS strings whose
 * every char code is one byte (0–255), so raw keys, hashes and UTF-8 text all fit without conversion.
 */
import { UmbraError } from '../../core-native/ts/errors.js';
import type { DvmValue } from '../../protocol/contract-values.js';
import type { RpcArgument } from '../../protocol/rpc-arguments.js';

/** A parsed and compiled contract: install parses once, calls reuse it. */
export interface CompiledContract {
  readonly source: string;
  /** Every function name, and whether the chain (and other contracts) may call it. */
  readonly functions: ReadonlyMap<string, FunctionSignature>;
  /** `InitializePrivate` when the contract defines it, else `Initialize` when defined, else undefined. */
  readonly initializer: string | undefined;
  /** Private contracts define `InitializePrivate`. */
  readonly isPrivate: boolean;
}

export interface FunctionSignature {
  readonly name: string;
  readonly exported: boolean;
  readonly params: readonly { name: string; type: 'Uint64' | 'String' }[];
  readonly returns: 'Uint64' | 'String' | undefined;
}

/** Committed contract state as the VM sees it before a call (the VM keeps its own read-your-writes overlay). */
export interface ContractStorage {
  /** The committed value of a variable, or undefined. (The code is not a variable.) */
  load(key: DvmValue): DvmValue | undefined;
  /** The contract's committed balance of an asset (32 raw bytes; 32 zero bytes is the native coin). */
  balance(asset: string): bigint;
}

/** What the chain tells a call about where it runs. Ids are raw byte strings (32 bytes). */
export interface CallContext {
  readonly scid: string;
  readonly blid: string;
  readonly txid: string;
  readonly height: bigint;
  /** Block timestamp in milliseconds (BLOCK_TIMESTAMP() gives seconds). */
  readonly timestampMs: bigint;
  /** The signer's 33-byte raw key, or undefined when the sender is anonymous (ring size above 2). */
  readonly signer: string | undefined;
  /** Deposits of this transaction per asset (32 raw bytes → amount); the native coin is 32 zero bytes. */
  readonly deposits: ReadonlyMap<string, bigint>;
  /** The transaction fee: the storage-gas limit is min(fee, 20000); 0 means no storage limit (estimates). */
  readonly fee: bigint;
  /** Storage gas charged before the call runs (the byte length of the transaction's SC argument list). */
  readonly argumentsGas: bigint;
}

export interface CallRequest {
  readonly contract: CompiledContract;
  readonly entrypoint: string;
  /** The transaction's SC arguments: parameters bind to them by name and datatype. */
  readonly args: readonly RpcArgument[];
  readonly context: CallContext;
  readonly storage: ContractStorage;
}

/** One committed variable change; `value` undefined means deleted. */
export interface StorageWrite {
  readonly key: DvmValue;
  readonly value: DvmValue | undefined;
}

/** A payment out of the contract: `to` is the 33-byte raw key, `asset` 32 raw bytes. */
export interface ContractTransfer {
  readonly asset: string;
  readonly to: string;
  readonly amount: bigint;
}

export interface ContractFailure {
  readonly message: string;
  /** Where it happened, when inside the contract. */
  readonly function?: string;
  readonly line?: bigint;
}

export interface CallResult {
  /** The entry point ran to a RETURN without error. */
  readonly ok: boolean;
  /** ok, and it returned Uint64 0: only then do writes and transfers take effect. */
  readonly committed: boolean;
  /** The returned value (undefined for a function without a return type or after an error). */
  readonly value: DvmValue | undefined;
  readonly error: ContractFailure | undefined;
  readonly gas: { readonly compute: bigint; readonly storage: bigint };
  /** The committed writes (empty unless committed), in the order of first write. */
  readonly writes: readonly StorageWrite[];
  /** Committed payments (empty unless committed). */
  readonly transfers: readonly ContractTransfer[];
  /** New source code set by UPDATE_SC_CODE (committed calls only): it takes effect from the next call. */
  readonly code: string | undefined;
}

/** Why the contract VM refuses code or a call (a contract's own failure is a CallResult, not an error). */
export const ContractErrorCode = {
  /** The source does not parse or compile; the error names the function and line. */
  DoesNotCompile: 'contract.does-not-compile',
  /** The call's arguments do not fill the entry point's parameters. */
  BadArguments: 'contract.bad-arguments',
  /** The contract failed while it ran (a division by zero, PANIC, a gas or depth limit, …). */
  Panic: 'contract.panic',
} as const;
export type ContractErrorCode = (typeof ContractErrorCode)[keyof typeof ContractErrorCode];

export class ContractCompileError extends UmbraError<ContractErrorCode> {
  override readonly name = 'ContractCompileError';
  constructor(
    message: string,
    readonly functionName: string | undefined,
    readonly line: bigint | undefined,
    /** The 1-based line of the source file. */
    readonly sourceLine: number,
  ) {
    super(ContractErrorCode.DoesNotCompile, message);
  }
}

export interface ContractVm {
  /** Parses and compiles contract source; throws ContractCompileError naming the function and line. */
  compile(source: string): CompiledContract;
  /** Runs one entry point; never throws for anything the contract or its arguments do. */
  call(request: CallRequest): CallResult;
}
