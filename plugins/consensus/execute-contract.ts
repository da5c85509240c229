/**
 * Contract transactions inside a block (docs/protocol.md § Transactions, "Contract transactions"). A transaction's `sc_rpc` arguments say what to do:
 * `SC_ACTION` 1 installs `SC_CODE` (SCID = txid, the initializer runs), 0 calls `entrypoint` of `SC_ID`. Burns are
 * deposits to the contract; the signer is known only when the native payload has a ring of 2.
 *
 * Where we differ from the reference, deliberately (docs/contracts.md): what can be known before running — missing
 * or malformed arguments, code that does not compile or has no initializer, an unknown contract or entry point — makes
 * the transaction invalid (the pool refuses it, so no deposit is ever lost to a typo); and when a call fails at run
 * time, a known signer gets the deposits back in every case (the reference keeps them after a failed initializer).
 * Payments to unregistered keys fail the call instead of half-applying it. Whether a call can run and what it does
 * is decided by contract-call.ts, the path the daemon's trial run takes too; here its outcome, which the chain keeps
 * with the block, is applied to the block's state.
 */
import type { Core } from '../../core-native/ts/core.js';
import type { Block } from '../../protocol/block.js';
import { equalBytes } from '../../protocol/bytes.js';
import { sumDeposits } from '../../protocol/contract-deposits.js';
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import { NATIVE_SCID, transferFee, type VerifiedPayload } from '../../protocol/transfer-checks.js';
import type { TransferTx } from '../../protocol/transaction.js';
import type { ContractVm } from '../../host/services/contract-vm.js';
import type { AccountsWriter } from './accounts.js';
import type { BalanceMath } from './block-executor.js';
import { minedCallBlock } from './call-block.js';
import { decideContractCall, type ContractRun } from './contract-call.js';

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');
const raw = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'latin1'));

/** A contract transaction executed in a block: the contract it ran and what the call did. */
export interface ContractExecution {
  readonly scid: Uint8Array;
  readonly outcome: ContractCallOutcome;
}

export class BlockContracts {
  constructor(
    private readonly core: Core,
    private readonly math: BalanceMath,
    private readonly vm: ContractVm | undefined,
  ) {}

  /** Runs a checked contract transaction in a block and commits or discards its effects (docs/contracts.md § When a call commits). */
  execute(
    block: Block,
    txid: Uint8Array,
    tx: TransferTx,
    payloads: readonly VerifiedPayload[],
    state: AccountsWriter,
  ): ContractExecution {
    const deposits = sumDeposits(tx.payloads.map((payload) => [latin1(payload.scid), payload.burn]));
    const signer = this.signer(tx, payloads);
    const setting = { ...minedCallBlock(this.core, block), txid, signer, deposits, fee: transferFee(tx) };
    const run = decideContractCall(this.vm, setting, tx.scData, state);
    if (run.outcome.status === 'committed') this.commit(run, deposits, state);
    else if (signer) this.refund(signer, deposits, state);
    return { scid: run.call.scid, outcome: run.outcome };
  }

  /** The sender, when the native payload's ring of 2 reveals it. */
  private signer(tx: TransferTx, payloads: readonly VerifiedPayload[]): Uint8Array | undefined {
    const i = tx.payloads.findIndex((p) => equalBytes(p.scid, NATIVE_SCID));
    const { ring } = tx.payloads[i]!.statement;
    return ring.length === 2 ? ring[payloads[i]!.senderParity] : undefined;
  }

  private commit({ call, result }: ContractRun, deposits: ReadonlyMap<string, bigint>, state: AccountsWriter): void {
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
}
