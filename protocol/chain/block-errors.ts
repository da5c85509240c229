/** Why the chain refuses a block: the rule it breaks, from decoding through execution to the state root. */
import { UmbraError } from '../../core-native/ts/errors.js';
import { toHex } from '../bytes.js';
import type { TransactionError } from '../transaction-errors.js';

export const BlockErrorCode = {
  Malformed: 'block.malformed',
  AlreadyKnown: 'block.already-known',
  UnknownTip: 'block.unknown-tip',
  BelowStableHeight: 'block.below-stable-height',
  // Against the parent
  TipCount: 'block.tip-count',
  WrongHeight: 'block.wrong-height',
  TimestampBeforeTip: 'block.timestamp-before-tip',
  TimestampInFuture: 'block.timestamp-in-future',
  UnsupportedVersion: 'block.unsupported-version',
  MinerTxNotCoinbase: 'block.miner-tx-not-coinbase',
  // Miniblocks
  MiniblockCount: 'block.miniblock-count',
  MiniblockFlags: 'block.miniblock-flags',
  MiniblockHeight: 'block.miniblock-height',
  MiniblockTip: 'block.miniblock-tip',
  DuplicateMiniblock: 'block.duplicate-miniblock',
  BadPow: 'block.bad-pow',
  FinalKeyHash: 'block.final-key-hash',
  // Execution
  BadTransaction: 'block.bad-transaction',
  NotExecuted: 'block.not-executed',
  UnregisteredRewardKey: 'block.unregistered-reward-key',
  GenesisWithoutPremine: 'block.genesis-without-premine',
  /** Executing the block failed in a way no rule names. */
  ExecutionFailed: 'block.execution-failed',
  WrongStateRoot: 'block.wrong-state-root',
} as const;
export type BlockErrorCode = (typeof BlockErrorCode)[keyof typeof BlockErrorCode];

export class BlockRejected extends UmbraError<BlockErrorCode> {
  override readonly name = 'BlockRejected';
}

/** A block is rejected because of one of its transactions (a template builder drops that one and retries). */
export class TransactionRejected extends BlockRejected {
  constructor(
    readonly txid: Uint8Array,
    /** The rule the transaction breaks. */
    readonly reason: TransactionError,
  ) {
    super(BlockErrorCode.BadTransaction, `transaction ${toHex(txid)}: ${reason.message}`, { cause: reason });
  }
}
