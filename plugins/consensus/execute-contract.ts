/**
 * Contract transactions inside a block (docs/protocol.md § Transactions, "Contract transactions"). A transaction's `sc_rpc` arguments say what to do:
 * `SC_ACTION` 1 installs `SC_CODE` (SCID = txid, the initializer runs), 0 calls `entrypoint` of `SC_ID`. Burns are
 * deposits to the contract; the signer is known only when the native payload has a ring of 2.
 *
 * Where we differ from the reference, deliberately (docs/contracts.md): what can be known before running — missing
 * or malformed arguments, code that does not compile or has no initializer, an unknown contract or entry point — makes
 * the transaction invalid (the pool refuses it, so no deposit is ever lost to a typo); and when a call fails at run
 * time, a known signer gets the deposits back in every case (the reference keeps them after a failed initializer).
 * Payments to unregistered keys fail the call instead of half-applying it. Every run ends in a ContractCallOutcome
 * (committed, returned a non-zero code, or failed with the reason), which the chain keeps with the block.
 */
import type { Core } from '../../core-native/ts/core.js';
import type { Block } from '../../protocol/block.js';
import { encodeBlock } from '../../protocol/block.js';
import { equalBytes, toHex } from '../../protocol/bytes.js';
import { sumDeposits } from '../../protocol/contract-deposits.js';
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import { MINIBLOCKS_PER_BLOCK } from '../../protocol/miniblock.js';
import { decodeRpcArguments, RpcArgumentError, type RpcArgument } from '../../protocol/rpc-arguments.js';
import { NATIVE_SCID, transferFee, type VerifiedPayload } from '../../protocol/transfer-checks.js';
import { TransactionError, TransactionErrorCode } from '../../protocol/transaction-errors.js';
import type { TransferTx } from '../../protocol/transaction.js';
import {
  ContractCompileError,
  type CallResult,
  type CompiledContract,
  type ContractVm,
} from '../../host/services/contract-vm.js';
import { NATIVE_ASSET, type AccountsReader, type AccountsWriter } from './accounts.js';
import type { BalanceMath } from './block-executor.js';

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');
const raw = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'latin1'));
const COMPILED_CACHE_SIZE = 256;

/** A contract transaction, understood: what it runs, with which arguments. */
export interface ContractInvocation {
  readonly install: boolean;
  readonly scid: Uint8Array;
  readonly contract: CompiledContract;
  readonly entrypoint: string;
  readonly args: RpcArgument[];
}

/** A contract transaction executed in a block: the contract it ran and what the call did. */
export interface ContractExecution {
  readonly scid: Uint8Array;
  readonly outcome: ContractCallOutcome;
}

const find = (args: readonly RpcArgument[], name: string, datatype: RpcArgument['datatype']): RpcArgument | undefined =>
  args.find((a) => a.name === name && a.datatype === datatype);

export class ContractRules {
  private readonly compiled = new Map<string, CompiledContract>();

  constructor(
    private readonly core: Core,
    private readonly math: BalanceMath,
    private readonly vm: ContractVm | undefined,
  ) {}

  /** Reads a contract transaction's arguments against the state; throws a TransactionError when it cannot run. */
  invocation(txid: Uint8Array, tx: TransferTx, state: AccountsReader): ContractInvocation {
    const { vm } = this;
    if (!vm) throw new TransactionError(TransactionErrorCode.NoContractVm, 'this node runs without the contract VM');
    let args: RpcArgument[];
    try {
      args = decodeRpcArguments(tx.scData);
    } catch (error) {
      if (error instanceof RpcArgumentError)
        throw new TransactionError(
          TransactionErrorCode.BadContractArguments,
          `its sc_rpc arguments are malformed: ${error.message}`,
        );
      throw error;
    }
    const action = find(args, 'SC_ACTION', 'U')?.value;
    if (action === 1n) {
      const code = find(args, 'SC_CODE', 'S')?.value as string | undefined;
      if (!code)
        throw new TransactionError(
          TransactionErrorCode.BadContractArguments,
          'an install needs the contract source in SC_CODE (datatype S)',
        );
      if (state.contracts.exists(txid))
        throw new TransactionError(TransactionErrorCode.ContractExists, `contract ${toHex(txid)} already exists`);
      const contract = this.compile(vm, code, 'the contract');
      if (!contract.initializer)
        throw new TransactionError(
          TransactionErrorCode.NoInitializer,
          'the contract has no Initialize or InitializePrivate function',
        );
      return { install: true, scid: txid, contract, entrypoint: contract.initializer, args };
    }
    if (action !== 0n)
      throw new TransactionError(
        TransactionErrorCode.BadContractArguments,
        'SC_ACTION (datatype U) must be 0 (call) or 1 (install)',
      );
    const scidArg = find(args, 'SC_ID', 'H')?.value as string | undefined;
    const entrypoint = find(args, 'entrypoint', 'S')?.value as string | undefined;
    if (!scidArg || !entrypoint)
      throw new TransactionError(
        TransactionErrorCode.BadContractArguments,
        'a call needs SC_ID (datatype H) and entrypoint (datatype S)',
      );
    const scid = Uint8Array.from(Buffer.from(scidArg, 'hex'));
    const code = state.contracts.code(scid);
    if (code === undefined)
      throw new TransactionError(TransactionErrorCode.UnknownContract, `there is no contract ${scidArg}`);
    const contract = this.compile(vm, code, `contract ${scidArg}`);
    const fn = contract.functions.get(entrypoint);
    if (!fn)
      throw new TransactionError(
        TransactionErrorCode.UnknownFunction,
        `contract ${scidArg} has no function ${entrypoint}`,
      );
    if (!fn.exported)
      throw new TransactionError(
        TransactionErrorCode.NotExported,
        `function ${entrypoint} of contract ${scidArg} is not exported (its name starts with a lower-case letter)`,
      );
    return { install: false, scid, contract, entrypoint, args };
  }

  /** Runs a checked contract transaction in a block and commits or discards its effects (docs/contracts.md § When a call commits). */
  execute(
    block: Block,
    txid: Uint8Array,
    tx: TransferTx,
    payloads: readonly VerifiedPayload[],
    state: AccountsWriter,
  ): ContractExecution {
    const call = this.invocation(txid, tx, state);
    const deposits = sumDeposits(tx.payloads.map((payload) => [latin1(payload.scid), payload.burn]));
    const signer = this.signer(tx, payloads);
    const result = this.vm!.call({
      contract: call.contract,
      entrypoint: call.entrypoint,
      args: call.args,
      storage: state.contracts.storage(call.scid),
      context: {
        scid: latin1(call.scid),
        blid: latin1(this.executionBlockId(block)),
        txid: latin1(txid),
        height: block.height,
        timestampMs: block.timestamp,
        signer: signer && latin1(signer),
        deposits,
        fee: transferFee(tx),
        argumentsGas: BigInt(tx.scData.length),
      },
    });
    const outcome = callOutcome(result, result.committed ? unpayablePayment(result, state) : undefined);
    if (outcome.status === 'committed') this.commit(call, result, deposits, state);
    else if (signer) this.refund(signer, deposits, state);
    return { scid: call.scid, outcome };
  }

  /**
   * The BLID a contract sees: the block is not finished while its transactions run (its id covers the state root), so
   * contracts get SHA3-256 of the block with its nine ordinary miniblocks and a zero state root — fixed by the mined
   * miniblocks, unknown to a sender before they are mined.
   */
  private executionBlockId(block: Block): Uint8Array {
    return this.core.sha3_256(encodeBlock({ ...block, stateRoot: new Uint8Array(32) }, MINIBLOCKS_PER_BLOCK - 1));
  }

  /** The sender, when the native payload's ring of 2 reveals it. */
  private signer(tx: TransferTx, payloads: readonly VerifiedPayload[]): Uint8Array | undefined {
    const i = tx.payloads.findIndex((p) => equalBytes(p.scid, NATIVE_SCID));
    const { ring } = tx.payloads[i]!.statement;
    return ring.length === 2 ? ring[payloads[i]!.senderParity] : undefined;
  }

  private commit(
    call: ContractInvocation,
    result: CallResult,
    deposits: ReadonlyMap<string, bigint>,
    state: AccountsWriter,
  ): void {
    const { scid } = call;
    if (call.install) state.contracts.install(scid, call.contract.source, call.contract.isPrivate);
    state.contracts.apply(scid, result.writes);
    if (result.code !== undefined) state.contracts.setCode(scid, result.code);
    // Deposits join the contract's balances and payments leave them; its own token is never a balance (minted freely).
    const own = latin1(scid);
    const change = new Map<string, bigint>();
    for (const [asset, amount] of deposits) if (asset !== own) change.set(asset, (change.get(asset) ?? 0n) + amount);
    for (const t of result.transfers) if (t.asset !== own) change.set(t.asset, (change.get(t.asset) ?? 0n) - t.amount);
    for (const [asset, delta] of change) {
      if (delta !== 0n) state.contracts.setBalance(scid, raw(asset), state.contracts.balance(scid, raw(asset)) + delta);
    }
    for (const t of result.transfers) if (t.amount > 0n) this.credit(raw(t.to), raw(t.asset), t.amount, state);
  }

  private refund(signer: Uint8Array, deposits: ReadonlyMap<string, bigint>, state: AccountsWriter): void {
    for (const [asset, amount] of deposits) if (amount > 0n) this.credit(signer, raw(asset), amount, state);
  }

  /** A public credit to a key's balance of an asset (a token balance starts at (Y, G) the first time). */
  private credit(key: Uint8Array, asset: Uint8Array, amount: bigint, state: AccountsWriter): void {
    const before = state.getBalance(asset, key) ?? this.math.registration(key);
    state.putBalance(asset, key, this.math.credit(before, amount));
  }

  private compile(vm: ContractVm, code: string, what: string): CompiledContract {
    const key = toHex(this.core.keccak256(Buffer.from(code, 'utf8')));
    let contract = this.compiled.get(key);
    if (contract) return contract;
    try {
      contract = vm.compile(code);
    } catch (error) {
      if (error instanceof ContractCompileError)
        throw new TransactionError(
          TransactionErrorCode.ContractDoesNotCompile,
          `${what} does not compile: ${error.message} (source line ${error.sourceLine})`,
        );
      throw error;
    }
    this.compiled.set(key, contract);
    if (this.compiled.size > COMPILED_CACHE_SIZE) this.compiled.delete(this.compiled.keys().next().value!);
    return contract;
  }
}

/** Why a call that returned 0 cannot commit: a payment to a key that is not registered. */
export function unpayablePayment(result: CallResult, state: AccountsReader): string | undefined {
  const to = result.transfers.find((t) => t.amount > 0n && !state.getBalance(NATIVE_ASSET, raw(t.to)));
  return to && `the contract pays ${toHex(raw(to.to))}, which is not a registered account`;
}

/**
 * What a call did, as the chain records it; `unpayable` says why a call that returned 0 still cannot commit. A String
 * or missing return value is a failure (only a Uint64 is a return code).
 */
function callOutcome(result: CallResult, unpayable: string | undefined): ContractCallOutcome {
  const gascompute = Number(result.gas.compute);
  if (unpayable !== undefined) return { status: 'failed', message: unpayable, gascompute };
  if (result.committed) return { status: 'committed', code: 0, gascompute };
  if (result.error) {
    const { line } = result.error;
    return {
      status: 'failed',
      message: describeFailure(result),
      ...(line !== undefined && { line: Number(line) }),
      gascompute,
    };
  }
  if (typeof result.value === 'bigint') return { status: 'returned', code: Number(result.value), gascompute };
  return { status: 'failed', message: describeFailure(result), gascompute };
}

/** Why a call was discarded, naming the place of an error. */
export function describeFailure(result: CallResult): string {
  if (result.error) {
    const where = result.error.function
      ? ` (in ${result.error.function}${result.error.line !== undefined ? ` line ${result.error.line}` : ''})`
      : '';
    return `${result.error.message}${where}`;
  }
  return `the entry point returned ${typeof result.value === 'bigint' ? result.value : result.value === undefined ? 'no value' : 'a String'} (only Uint64 0 commits)`;
}
