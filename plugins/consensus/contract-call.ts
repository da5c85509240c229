/**
 * One contract call, from its transaction's `sc_rpc` bytes to its outcome: the single path that a block's execution
 * (execute-contract.ts), the pool's admission (tx-executor.ts) and the daemon's trial run (NODE.GetGasEstimate, which
 * the wallet runs before paying) all take, so the trial refuses what the chain refuses and predicts the mined outcome
 * in the chain's words. What differs between them is only the setting: the block the call runs in, or the next one
 * as far as it is known (call-block.ts), and the transaction that carries it.
 *
 * A call that cannot run — malformed arguments, code that does not compile or has no initializer, an unknown contract
 * or entry point — is a TransactionError (the rule book, protocol/contract-call-rules.ts); a call that runs ends in a
 * ContractCallOutcome: committed, returned a non-zero code, or failed with the reason.
 */
import { toHex } from '../../protocol/bytes.js';
import {
  compileRefusal,
  contractAction,
  contractExists,
  entryPointRefusal,
  noContractVm,
  requireInitializer,
  unknownContract,
} from '../../protocol/contract-call-rules.js';
import { returnRefusal, type ContractCallOutcome } from '../../protocol/contract-outcome.js';
import { decodeRpcArguments, RpcArgumentError, type RpcArgument } from '../../protocol/rpc-arguments.js';
import { TransactionError, TransactionErrorCode } from '../../protocol/transaction-errors.js';
import {
  ContractCompileError,
  type CallResult,
  type CompiledContract,
  type ContractVm,
} from '../../host/services/contract-vm.js';
import { NATIVE_ASSET, type AccountsReader } from './accounts.js';

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');
const raw = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'latin1'));

/** A contract transaction, understood: what it runs, with which arguments. */
export interface ContractInvocation {
  readonly install: boolean;
  readonly scid: Uint8Array;
  readonly contract: CompiledContract;
  readonly entrypoint: string;
  readonly args: RpcArgument[];
  /** Storage gas charged before the call runs: the byte length of the `sc_rpc` arguments. */
  readonly argumentsGas: bigint;
}

/** Where a call runs: its block (or the block it would be in) and the transaction that carries it. */
export interface CallSetting {
  readonly blid: Uint8Array;
  readonly height: bigint;
  readonly timestampMs: bigint;
  readonly txid: Uint8Array;
  /** The sender's key, when the native payload's ring of 2 reveals it. */
  readonly signer: Uint8Array | undefined;
  /** Deposits per asset (32 raw bytes as a latin1 string → amount). */
  readonly deposits: ReadonlyMap<string, bigint>;
  /** The transaction fee, the call's storage-gas limit (0: none). */
  readonly fee: bigint;
}

/** A call that ran: what it asked for, what the VM did, and the outcome the chain records. */
export interface ContractRun {
  readonly call: ContractInvocation;
  readonly result: CallResult;
  readonly outcome: ContractCallOutcome;
}

/**
 * Reads a contract transaction's arguments against the state; throws a TransactionError when the call cannot run.
 * An install's contract id is its transaction id.
 */
export function contractInvocation(
  vm: ContractVm | undefined,
  txid: Uint8Array,
  scData: Uint8Array,
  state: AccountsReader,
): ContractInvocation {
  if (!vm) throw noContractVm();
  const args = readArguments(scData);
  const argumentsGas = BigInt(scData.length);
  const action = contractAction(args);
  if (action.install) {
    if (state.contracts.exists(txid)) throw contractExists(toHex(txid));
    const contract = compile(vm, action.code, 'the contract');
    const entrypoint = requireInitializer(contract.initializer);
    return { install: true, scid: txid, contract, entrypoint, args, argumentsGas };
  }
  const scid = Uint8Array.from(Buffer.from(action.scid, 'hex'));
  const code = state.contracts.code(scid);
  if (code === undefined) throw unknownContract(action.scid);
  const contract = compile(vm, code, `contract ${action.scid}`);
  const refusal = entryPointRefusal(contract.functions, action.entrypoint, `contract ${action.scid}`);
  if (refusal) throw refusal;
  return { install: false, scid, contract, entrypoint: action.entrypoint, args, argumentsGas };
}

/** Runs a call that can run, in its setting, on `state` (nothing is written): what it did and its outcome. */
export function runContractCall(
  vm: ContractVm,
  call: ContractInvocation,
  setting: CallSetting,
  state: AccountsReader,
): ContractRun {
  const result = vm.call({
    contract: call.contract,
    entrypoint: call.entrypoint,
    args: call.args,
    storage: state.contracts.storage(call.scid),
    context: {
      scid: latin1(call.scid),
      blid: latin1(setting.blid),
      txid: latin1(setting.txid),
      height: setting.height,
      timestampMs: setting.timestampMs,
      signer: setting.signer && latin1(setting.signer),
      deposits: setting.deposits,
      fee: setting.fee,
      argumentsGas: call.argumentsGas,
    },
  });
  return { call, result, outcome: callOutcome(result, state) };
}

/**
 * The rule book applied: whether the contract transaction with `scData` can run on `state` in `setting` (a
 * TransactionError when not), and if so what it does and its outcome. Nothing is written to `state`.
 */
export function decideContractCall(
  vm: ContractVm | undefined,
  setting: CallSetting,
  scData: Uint8Array,
  state: AccountsReader,
): ContractRun {
  const call = contractInvocation(vm, setting.txid, scData, state);
  return runContractCall(vm!, call, setting, state);
}

function readArguments(scData: Uint8Array): RpcArgument[] {
  try {
    return decodeRpcArguments(scData);
  } catch (error) {
    if (!(error instanceof RpcArgumentError)) throw error;
    throw new TransactionError(
      TransactionErrorCode.BadContractArguments,
      `its sc_rpc arguments are malformed: ${error.message}`,
    );
  }
}

function compile(vm: ContractVm, code: string, contract: string): CompiledContract {
  try {
    return vm.compile(code);
  } catch (error) {
    if (error instanceof ContractCompileError) throw compileRefusal(contract, error);
    throw error;
  }
}

/**
 * What a call did, as the chain records it. A call that returned 0 still fails when it pays a key that is not
 * registered (nothing is half-applied); a String or missing return value is a failure (only a Uint64 is a code).
 */
function callOutcome(result: CallResult, state: AccountsReader): ContractCallOutcome {
  const gascompute = Number(result.gas.compute);
  if (result.committed) {
    const unpayable = result.transfers.find((t) => t.amount > 0n && !state.getBalance(NATIVE_ASSET, raw(t.to)));
    if (!unpayable) return { status: 'committed', code: 0, gascompute };
    const message = `the contract pays ${toHex(raw(unpayable.to))}, which is not a registered account`;
    return { status: 'failed', message, gascompute };
  }
  if (result.error) {
    const { message, function: fn, line } = result.error;
    const where = fn ? ` (in ${fn}${line !== undefined ? ` line ${line}` : ''})` : '';
    return {
      status: 'failed',
      message: `${message}${where}`,
      ...(line !== undefined && { line: Number(line) }),
      gascompute,
    };
  }
  if (typeof result.value === 'bigint') return { status: 'returned', code: Number(result.value), gascompute };
  return {
    status: 'failed',
    message: returnRefusal(result.value === undefined ? 'no value' : 'a String'),
    gascompute,
  };
}
