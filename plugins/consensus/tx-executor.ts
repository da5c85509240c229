/**
 * The transactions of a block, executed in order on the block's state (docs/protocol.md
 * § Transactions): registrations (a new key starts at an encryption of zero), transfers (proofs, nonce heights, homomorphic
 * updates) and contract transactions (a transfer whose burns are deposits, then the install or call). Any invalid
 * transaction rejects the whole block with TransactionRejected naming it, so a template builder can leave it out;
 * nothing of a rejected block is kept. The same rules answer the mempool's "could this go into the next block?".
 */
import type { Core } from '../../core-native/ts/core.js';
import type { VerifyPool } from '../../core-native/ts/proof/verify-pool.js';
import { toHex } from '../../protocol/bytes.js';
import { CHAIN_PARAMS } from '../../protocol/chain-params.js';
import { NETWORKS, type NetworkName } from '../../protocol/network.js';
import { checkRegistration } from '../../protocol/registration.js';
import { transferFee } from '../../protocol/transfer-checks.js';
import { TransactionError, TransactionErrorCode } from '../../protocol/transaction-errors.js';
import { TxType, type RegistrationTx, type TransferTx } from '../../protocol/transaction.js';
import type { Logger } from '../../host/logger.js';
import type { ChainTimingObserver } from '../../host/services/chain.js';
import type { ContractVm } from '../../host/services/contract-vm.js';
import type { Block } from '../../protocol/block.js';
import type { NonceBalance } from '../../protocol/nonce-balance.js';
import { NATIVE_ASSET, type AccountsReader, type AccountsWriter } from './accounts.js';
import { TransactionRejected } from '../../protocol/chain/block-errors.js';
import type { BalanceMath } from './block-executor.js';
import type { BlockTransaction, ExecutedCall, ExecutionView, TemplateExecution, TransactionExecutor } from './chain.js';
import { contractInvocation } from './contract-call.js';
import { FairSlices } from '../../host/fair-slices.js';
import { BlockContracts } from './execute-contract.js';
import { TransferRules, type BalanceWriter, type CheckedPayload } from './execute-transfer.js';

export interface ExecutorDeps {
  core: Core;
  network: NetworkName;
  math: BalanceMath;
  contractVm: ContractVm | undefined;
  logger: Logger;
  /** Worker threads for verifying a block's proofs (none: batched on this thread). */
  verifyPool?: VerifyPool;
  /** Told how long each transfer's verification took (the chain's timings). */
  timings?: ChainTimingObserver;
  /**
   * The shortest time a template's execution holds the event loop at a time, ms (4): admission goes on between
   * slices, and a slice grows to the time the loop took to come back (up to 50 ms), so the template keeps half the
   * thread under load (host/fair-slices.ts).
   */
  templateSliceMs?: number;
}

/** The balance writes of a block's transactions, in order. */
type BalanceWrites = [asset: Uint8Array, key: Uint8Array, balance: NonceBalance][];

/**
 * The last execution of a block's transactions without contract calls, for the next block of the same transactions
 * (the same bytes, in order) at the same height on the same parent: a template, then the block mined from it.
 * Execution is a function of those alone, so its writes and fees are replayed instead of checking everything again.
 */
interface LastExecution {
  readonly key: string;
  readonly writes: BalanceWrites;
  readonly fees: bigint;
}

/** What one block has used up so far: registered keys and proof nonces. */
interface BlockScope {
  readonly keys: Set<string>;
  readonly nonces: Set<string>;
}

export function transactionExecutor(deps: ExecutorDeps): TransactionExecutor {
  const { core, network, math } = deps;
  const gens = core.generators(NETWORKS[network].generatorDomain);
  const powBits = CHAIN_PARAMS[network].registrationPowBits;
  const transfers = new TransferRules(core, gens, math, deps.timings);
  const contracts = new BlockContracts(core, math, deps.contractVm);

  const checkRegistrationTx = (tx: RegistrationTx, state: AccountsReader, scope: BlockScope): void => {
    checkRegistration(core, gens.G, tx, powBits);
    const key = toHex(tx.key);
    if (scope.keys.has(key))
      throw new TransactionError(
        TransactionErrorCode.AlreadyRegistered,
        `key ${key} is registered twice in this block`,
      );
    if (state.getBalance(NATIVE_ASSET, tx.key))
      throw new TransactionError(TransactionErrorCode.AlreadyRegistered, `key ${key} is already registered`);
  };

  const checkTransferTx = (
    item: BlockTransaction,
    tx: TransferTx,
    height: bigint,
    state: AccountsReader,
    view: ExecutionView,
    scope: BlockScope,
  ): CheckedPayload[] => {
    const payloads = transfers.check(item.id, item.bytes, tx, height, state, view, scope.nonces);
    if (tx.type === TxType.SmartContract) contractInvocation(deps.contractVm, item.id, tx.scData, state);
    return payloads;
  };

  /** Runs `body` for a transaction of a block, turning a rule violation into TransactionRejected for `id`. */
  const judged = <T>(id: Uint8Array, body: () => T): T => {
    try {
      return body();
    } catch (error) {
      if (error instanceof TransactionError) throw new TransactionRejected(id, error);
      throw error;
    }
  };

  /** The parent, the height and every transaction's bytes, hashed in order. */
  const executionKey = (block: Block, txs: readonly BlockTransaction[]): string =>
    `${block.tips.map(toHex).join()}:${block.height}:${toHex(core.keccak256(Buffer.concat(txs.map((item) => core.keccak256(item.bytes)))))}`;
  let last: LastExecution | undefined;

  const unexpected = (item: BlockTransaction): never => {
    throw new TransactionError(
      TransactionErrorCode.MinerOnly,
      `a ${TxType[item.tx.type] ?? item.tx.type} transaction only appears as a block's miner transaction`,
    );
  };

  /**
   * A block's transactions executed in order, yielding after each one. A transaction that breaks a rule throws
   * TransactionRejected, unless `dropInvalid` is given: then it is reported there and left out (it wrote nothing:
   * every rule is checked before anything is written). Returns what was executed, with the transactions included.
   */
  function* executeSteps(
    block: Block,
    state: AccountsWriter,
    txs: readonly BlockTransaction[],
    view: ExecutionView,
    dropInvalid?: (txid: Uint8Array, reason: string) => void,
  ): Generator<void, TemplateExecution> {
    const replayable = !txs.some((item) => item.tx.type === TxType.SmartContract);
    const key = replayable ? executionKey(block, txs) : undefined;
    if (key !== undefined && last?.key === key) {
      for (const [asset, account, balance] of last.writes) state.putBalance(asset, account, balance);
      return { fees: last.fees, calls: [], txs };
    }
    const writes: BalanceWrites = [];
    const recorded: BalanceWriter = {
      getBalance: (asset, account) => state.getBalance(asset, account),
      getBalances: (asset, accounts) => state.getBalances(asset, accounts),
      putBalance(asset, account, balance) {
        writes.push([asset, account, balance]);
        state.putBalance(asset, account, balance);
      },
    };
    const scope: BlockScope = { keys: new Set(), nonces: new Set() };
    let fees = 0n;
    const calls: ExecutedCall[] = [];
    const execute = (item: BlockTransaction): void => {
      const { tx } = item;
      if (tx.type === TxType.Registration) {
        judged(item.id, () => checkRegistrationTx(tx, state, scope));
        scope.keys.add(toHex(tx.key));
        recorded.putBalance(NATIVE_ASSET, tx.key, math.registration(tx.key));
      } else if (tx.type === TxType.Normal || tx.type === TxType.SmartContract) {
        const payloads = judged(item.id, () => checkTransferTx(item, tx, block.height, state, view, scope));
        for (const { nonce } of payloads) scope.nonces.add(toHex(nonce));
        transfers.apply(tx, payloads, block.height, recorded);
        fees += transferFee(tx);
        if (tx.type === TxType.SmartContract) {
          const { scid, outcome } = contracts.execute(block, item.id, tx, payloads, state);
          calls.push({ txid: item.id, outcome });
          if (outcome.status !== 'committed')
            deps.logger.debug(
              `contract ${toHex(scid)}: transaction ${toHex(item.id)} discarded: ${outcome.message ?? `returned ${outcome.code}`}`,
            );
        }
      } else judged(item.id, () => unexpected(item));
    };
    const included: BlockTransaction[] = [];
    for (const item of txs) {
      try {
        execute(item);
      } catch (error) {
        if (!(dropInvalid && error instanceof TransactionRejected)) throw error;
        dropInvalid(item.id, error.message);
        continue;
      }
      included.push(item);
      yield;
    }
    const executedKey = included.length === txs.length ? key : replayable ? executionKey(block, included) : undefined;
    last = executedKey === undefined ? undefined : { key: executedKey, writes, fees };
    return { fees, calls, txs: included };
  }

  return {
    async prepareBlock(txs, view) {
      const transferTxs = txs.flatMap((item) =>
        item.tx.type === TxType.Normal || item.tx.type === TxType.SmartContract
          ? [{ id: item.id, bytes: item.bytes, tx: item.tx }]
          : [],
      );
      await transfers.preverify(transferTxs, view, deps.verifyPool);
    },
    executeBlock(block, state, txs, view) {
      const steps = executeSteps(block, state, txs, view);
      for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
    },
    async executeTemplate(block, state, txs, view, dropInvalid) {
      const steps = executeSteps(block, state, txs, view, dropInvalid);
      const slices = new FairSlices(deps.templateSliceMs);
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) return step.value;
        if (slices.due()) await slices.yield();
      }
    },
    checkPending(item, height, state, view) {
      const { tx } = item;
      const scope: BlockScope = { keys: new Set(), nonces: new Set() };
      if (tx.type === TxType.Registration) {
        checkRegistrationTx(tx, state, scope);
        return [];
      }
      if (tx.type === TxType.Normal || tx.type === TxType.SmartContract)
        return checkTransferTx(item, tx, height, state, view, scope).map((p) => p.nonce);
      return unexpected(item);
    },
  };
}
