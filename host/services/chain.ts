/**
 * The chain as other plugins see it (mining, mempool, p2p, wallet-side services): the main chain's top, blocks and
 * their metadata, difficulty, and block submission. Implemented by the `consensus` plugin, registered as `chain`.
 */
import type { Block } from '../../protocol/block.js';
import type { ChainParams } from '../../protocol/chain-params.js';
import type { NonceBalance } from '../../protocol/nonce-balance.js';
import type { Transaction } from '../../protocol/transaction.js';

export interface BlockMeta {
  id: Uint8Array;
  height: bigint;
  timestamp: bigint;
  /** Difficulty the block's miniblocks were mined at. */
  difficulty: bigint;
  /** Sum of the difficulties from genesis through this block: the fork-choice weight. */
  cumulativeWork: bigint;
  /** State version holding the state after this block. */
  stateVersion: bigint;
  stateRoot: Uint8Array;
  /** Serialised size in bytes. */
  size: number;
  txCount: number;
  /** Base reward paid in this block (fees excluded). */
  reward: bigint;
}

export type AddBlockOutcome =
  /**
   * `dropped`: transactions of the blocks a reorganisation took off the main chain that the new branch lacks;
   * `previousTop`: after a reorganisation, the main chain's top it replaced.
   */
  | { status: 'main'; id: Uint8Array; reorganised: boolean; dropped?: Uint8Array[]; previousTop?: BlockMeta }
  | { status: 'side'; id: Uint8Array }
  | { status: 'orphan'; id: Uint8Array };

export type BlockListener = (meta: BlockMeta, outcome: AddBlockOutcome) => void;

/** What the chain's work costs, as it happens (for metrics); each method is optional. */
export interface ChainTimingObserver {
  /** A block was validated, executed and stored in `seconds` (rejected and orphan blocks are not counted). */
  blockApplied?(seconds: number): void;
  /**
   * A transfer's proofs were verified in `seconds`; `ring` is its ring size. Proofs verified in a batch (a block's)
   * share the batch's time by their count.
   */
  transferVerified?(ring: number, seconds: number): void;
}

export interface ChainService {
  readonly params: ChainParams;
  /** The main chain's top block. */
  readonly top: BlockMeta;
  stableHeight(): bigint;
  block(id: Uint8Array): Block | undefined;
  /** A stored block as serialised (what peers are sent). */
  blockBytes(id: Uint8Array): Uint8Array | undefined;
  meta(id: Uint8Array): BlockMeta | undefined;
  metaAtTopo(topoheight: bigint): BlockMeta | undefined;
  /** The difficulty a child of `parent` must be mined at. */
  difficultyAfter(parent: BlockMeta): bigint;
  /** Whether a key (33-byte compressed) is registered in the main chain's latest state. */
  isRegistered(key: Uint8Array): boolean;
  /** A key's encrypted balance of an asset (32-byte scid; zero for the native coin) in the main chain's latest state. */
  balance(asset: Uint8Array, key: Uint8Array): NonceBalance | undefined;
  /** The registered key whose key hash starts with `prefix`, in the latest state. */
  keyByHashPrefix(prefix: Uint8Array): Uint8Array | undefined;
  /**
   * The state root a block would have, executed on its tip (for block templates). With `dropInvalid`, transactions
   * the block cannot take are removed from `block.txHashes` and reported, instead of failing.
   */
  computeStateRoot(block: Block, dropInvalid?: (txid: Uint8Array, reason: string) => void): Uint8Array;
  /**
   * Like `computeStateRoot` with `dropInvalid`, the transactions executed a slice at a time so that the node goes on
   * admitting transactions meanwhile; undefined when blocks left the main chain meanwhile (build again).
   */
  buildTemplateState(
    block: Block,
    dropInvalid: (txid: Uint8Array, reason: string) => void,
  ): Promise<Uint8Array | undefined>;
  /**
   * Validates and adds a block; throws with the reason when it is rejected. `source` (a peer's address, `rpc`) is
   * who sent it: one source holds a bounded share of the orphan pool.
   */
  addBlock(bytes: Uint8Array, source?: string): Promise<AddBlockOutcome>;
  /** Calls `listener` after each stored block; one that throws is logged and changes nothing for the block. */
  onBlock(listener: BlockListener): () => void;
  /** Calls `observer` with the time each block and transfer verification takes; returns the function that stops it. */
  observeTimings(observer: ChainTimingObserver): () => void;
  /** Adds a place to look up transactions that blocks list but the chain has not stored (the mempool). */
  addTransactionSource(source: (txid: Uint8Array) => Uint8Array | undefined): void;
  /** A transaction included in a stored block (main or side chain), by txid. */
  storedTransaction(txid: Uint8Array): Uint8Array | undefined;
  /**
   * Checks that a decoded transaction could go into the next block on the top (everything but running contract
   * code); throws a TransactionError naming the reason. Returns a transfer's proof nonces (double-spend keys).
   */
  checkTransaction(id: Uint8Array, bytes: Uint8Array, tx: Transaction): { nonces: Uint8Array[] };
  /**
   * Verifies the proofs of transactions bound for the pool in one batch, on worker threads where there are some, so
   * that checkTransaction finds them verified; a transaction that fails is left for checkTransaction to refuse.
   */
  preverifyTransactions(txs: readonly { id: Uint8Array; bytes: Uint8Array; tx: Transaction }[]): Promise<void>;
  /** The main-chain block that includes a transaction, if any. */
  includingBlock(txid: Uint8Array): Uint8Array | undefined;
  /**
   * Makes the main-chain block `id` the top again, whatever its depth (the simulator's revert): the blocks above it
   * stay stored, off the main chain, and listeners hear of it as a reorganisation. Serialised with addBlock.
   */
  rewindTo(id: Uint8Array): Promise<BlockMeta>;
}
