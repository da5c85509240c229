/**
 * The chain: blocks in, fork choice by cumulative work, and the main-chain index. Blocks are validated in a fixed
 * order (decode → known? → parent → context → miniblocks/PoW → execution → state root), and everything an accepted
 * block changes — block, metadata, index, transactions, contract call outcomes, state — is written in one atomic batch, so a rejected block
 * changes nothing and a crash leaves the previous chain intact. Each block's state is its own version, so a
 * reorganisation only re-points the main-chain index (never below the stable height).
 */
import type { Core } from '../../core-native/ts/core.js';
import type { Logger } from '../../host/logger.js';
import { decodeBlock, encodeBlock, MAX_BLOCK_TX_BYTES, type Block } from '../../protocol/block.js';
import { equalBytes, toHex } from '../../protocol/bytes.js';
import { blockReward, CHAIN_PARAMS, STABLE_DEPTH, type ChainParams } from '../../protocol/chain-params.js';
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import type { NetworkName } from '../../protocol/network.js';
import type { NonceBalance } from '../../protocol/nonce-balance.js';
import { decodeTransaction, encodeTransactionHeader, type Transaction } from '../../protocol/transaction.js';
import { TransactionError, TransactionErrorCode } from '../../protocol/transaction-errors.js';
import type { AddBlockOutcome, BlockListener, ChainService, ChainTimingObserver } from '../../host/services/chain.js';
import type { KeyValueStore, WriteBatch } from '../../host/storage/kv-store.js';
import {
  NATIVE_ASSET,
  type AccountsReader,
  type AccountsState,
  type AccountsWriter,
  type IndexedAt,
} from './accounts.js';
import { checkAgainstParent, checkMiniblocks, checkStandalone } from '../../protocol/chain/block-checks.js';
import { BlockErrorCode, BlockRejected, TransactionRejected } from '../../protocol/chain/block-errors.js';
import { executeGenesis, payBlockRewards, type BalanceMath } from './block-executor.js';
import { ChainStore, type BlockMeta } from './chain-store.js';
import { ChainTimings } from './chain-timings.js';
import { nextDifficulty } from '../../protocol/chain/difficulty.js';
import { HistoryErrorCode, HistoryNotHeld } from './history-error.js';
import { OrphanPool } from './orphan-pool.js';
import { readHistoryFloor } from './state/history-floor.js';
import { BalanceIndex, type BalanceEntry } from './state/balance-index.js';
import { genesisTemplate } from './genesis.js';

/** A transaction of a block: its id, its bytes and its decoded form. */
export interface BlockTransaction {
  readonly id: Uint8Array;
  readonly bytes: Uint8Array;
  readonly tx: Transaction;
}

/** What executing transactions may ask of the chain about the branch it executes on. */
export interface ExecutionView {
  /** The block at `height` on this branch (a height below the executed block's), if any. */
  ancestor(height: bigint): BlockMeta | undefined;
  /** The state after a block. */
  stateAt(meta: BlockMeta): AccountsReader;
}

/** A contract transaction of a block and what its call did there. */
export interface ExecutedCall {
  readonly txid: Uint8Array;
  readonly outcome: ContractCallOutcome;
}

/** What a block's transactions gave: the fees they pay and what each contract transaction's call did. */
export interface BlockExecution {
  readonly fees: bigint;
  readonly calls: readonly ExecutedCall[];
}

/** What a template's transactions gave, and which of them it took. */
export interface TemplateExecution extends BlockExecution {
  readonly txs: readonly BlockTransaction[];
}

/** The rules for the transactions inside blocks (tx-executor.ts). */
export interface TransactionExecutor {
  /** Verifies what it can of a block's transactions ahead of `executeBlock` (proofs, in parallel); never throws. */
  prepareBlock(txs: readonly BlockTransaction[], view: ExecutionView): Promise<void>;
  /** Applies a block's transactions, in order, to the state; throws TransactionRejected. */
  executeBlock(
    block: Block,
    state: AccountsWriter,
    txs: readonly BlockTransaction[],
    view: ExecutionView,
  ): BlockExecution;
  /**
   * Applies a template's transactions like `executeBlock`, a slice at a time so that the event loop runs between
   * slices, leaving out (and reporting to `dropInvalid`) those it cannot take.
   */
  executeTemplate(
    block: Block,
    state: AccountsWriter,
    txs: readonly BlockTransaction[],
    view: ExecutionView,
    dropInvalid: (txid: Uint8Array, reason: string) => void,
  ): Promise<TemplateExecution>;
  /**
   * Checks that a transaction could go into a block of height `height` on `state` (nothing is kept); throws a
   * TransactionError naming the reason. Returns the proof nonces of a transfer (none for a registration).
   */
  checkPending(tx: BlockTransaction, height: bigint, state: AccountsReader, view: ExecutionView): Uint8Array[];
}

/** Where the bytes of a transaction not yet in the chain come from (the mempool). */
export type TransactionSource = (txid: Uint8Array) => Uint8Array | undefined;

export interface ChainDeps {
  store: KeyValueStore;
  core: Core;
  network: NetworkName;
  accounts: AccountsState;
  math: BalanceMath;
  logger: Logger;
  /** Local clock in ms (tests move it). */
  now?: () => bigint;
  executeTransactions?: TransactionExecutor;
  /** Where the chain reports its timings; share it with the transaction executor to hear of verifications too. */
  timings?: ChainTimings;
}

/** A block's transactions executed on its parent's state, with the rewards paid; the state not yet committed. */
interface Execution {
  readonly state: AccountsWriter;
  readonly txs: BlockTransaction[];
  readonly calls: readonly ExecutedCall[];
}

/**
 * What executing a block depends on besides its parent's state and its transactions' bytes: everything it encodes
 * except the state root and the final miniblock (a template has neither; the ordinary miniblocks name the miners).
 */
const executionKey = (block: Block): string =>
  toHex(
    encodeBlock({ ...block, stateRoot: new Uint8Array(32), miniblocks: block.miniblocks.filter((mb) => !mb.final) }),
  );

/** Where a template's state is committed: only its root is wanted (the mined block commits it for real). */
const discardingBatch: WriteBatch = {
  put() {
    return this;
  },
  del() {
    return this;
  },
  length: 0,
  write: () => Promise.reject(new Error('a template state is never written')),
};

export class Chain implements ChainService {
  private readonly txSources: TransactionSource[] = [(txid) => this.adoptedTxs.get(toHex(txid))];
  /** The bodies that came with the orphan being added now (see adoptOrphans). */
  private adoptedTxs: ReadonlyMap<string, Uint8Array> = new Map();
  readonly params: ChainParams;
  readonly blocks: ChainStore;
  /** Every main-chain balance version, where main-chain states read their balances (state/balance-index.ts). */
  readonly balanceIndex: BalanceIndex;
  private topMeta!: BlockMeta;
  private readonly orphans = new OrphanPool(() => Number(this.now()));
  private readonly listeners = new Set<BlockListener>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly now: () => bigint;
  private readonly timings: ChainTimings;
  /** The last block template's execution: the block mined from it commits that state instead of executing again. */
  private template: { key: string; execution: Execution } | undefined;
  /**
   * Counts the changes that took blocks off the main chain (and their balances out of the index): a template built
   * across one may have read balances of a state that was no longer indexed, and is built again.
   */
  private mainChainCuts = 0;
  /**
   * The top's state and branch view that the pool's checks read, made once per top: each check would otherwise read
   * the chain's records of the top (its topoheight, its state version's root, the history floor) and of the blocks
   * transfers reference again.
   */
  private pendingBasis: { top: BlockMeta; cuts: number; state: AccountsReader; view: ExecutionView } | undefined;

  private constructor(private readonly deps: ChainDeps) {
    this.params = CHAIN_PARAMS[deps.network];
    this.timings = deps.timings ?? new ChainTimings();
    this.blocks = new ChainStore(deps.store);
    this.balanceIndex = new BalanceIndex(deps.store);
    this.now = deps.now ?? (() => BigInt(Date.now()));
  }

  /** Opens the chain in the store, writing the network's genesis block when the store holds none. */
  static async open(deps: ChainDeps): Promise<Chain> {
    const chain = new Chain(deps);
    if (chain.blocks.topTopoheight() < 0n) await chain.writeGenesis();
    chain.topMeta = chain.blocks.getMeta(chain.blocks.idAtTopo(chain.blocks.topTopoheight())!)!;
    // A store written before the index existed, or whose index a deep reorganisation dropped.
    if (chain.balanceIndex.from === undefined) await chain.buildBalanceIndex();
    return chain;
  }

  /** Builds the balance index from the top's state: it answers from the top on. */
  private async buildBalanceIndex(): Promise<void> {
    const top = this.topMeta;
    await this.balanceIndex.build(top.height, this.deps.accounts.balancesChanged(top.stateVersion, null));
  }

  /** Where the balances of `meta`'s state are indexed: a main-chain block at or above the index's start. */
  private indexedAt(meta: BlockMeta): IndexedAt | undefined {
    if (!this.balanceIndex.covers(meta.height) || this.topoOf(meta) === null) return undefined;
    return { index: this.balanceIndex, topoheight: meta.height };
  }

  /** The state after `meta`, its balances read from the index when it is a main-chain block the index covers. */
  private accountsAt(meta: BlockMeta): AccountsReader {
    return this.deps.accounts.read(meta.stateVersion, this.indexedAt(meta));
  }

  /**
   * Fills a batch with changes that may reach the balance index, writes it, and tells the index whether its changes
   * hold: also when filling fails midway (a store read that fails while a reorganisation collects balances), so that
   * the index never waits for a batch that will not be written.
   */
  private async writeIndexed<T>(batch: WriteBatch, fill: () => T): Promise<T> {
    let filled: T;
    try {
      filled = fill();
      await batch.write();
    } catch (error) {
      this.balanceIndex.written(batch, true);
      throw error;
    }
    this.balanceIndex.written(batch);
    return filled;
  }

  /** The balances the block `meta` wrote: its state's differences from its parent's. */
  private balancesWrittenBy(meta: BlockMeta, parent: BlockMeta): BalanceEntry[] {
    return this.deps.accounts.balancesChanged(meta.stateVersion, parent.stateVersion);
  }

  private async writeGenesis(): Promise<void> {
    const block = genesisTemplate(this.deps.core, this.deps.network);
    const batch = this.deps.store.batch();
    const state = this.deps.accounts.write(null);
    executeGenesis(block, state, this.deps.math);
    const { version, root } = state.commit(batch);
    block.stateRoot = root;
    const bytes = encodeBlock(block);
    const meta: BlockMeta = {
      id: this.deps.core.sha3_256(bytes),
      height: 0n,
      timestamp: 0n,
      difficulty: this.params.bootstrapDifficulty,
      cumulativeWork: this.params.bootstrapDifficulty,
      stateVersion: version,
      stateRoot: root,
      size: bytes.length,
      txCount: 0,
      reward: 0n,
    };
    this.blocks.putBlock(batch, meta, bytes);
    this.blocks.setMain(batch, 0n, meta.id, []);
    this.blocks.setTop(batch, 0n);
    await batch.write();
    this.deps.logger.info(`wrote the ${this.deps.network} genesis block ${toHex(meta.id)}`);
  }

  get top(): BlockMeta {
    return this.topMeta;
  }

  /** Blocks at or below this height are final. */
  stableHeight(): bigint {
    return this.topMeta.height > STABLE_DEPTH ? this.topMeta.height - STABLE_DEPTH : 0n;
  }

  onBlock(listener: BlockListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  observeTimings(observer: ChainTimingObserver): () => void {
    return this.timings.observe(observer);
  }

  block(id: Uint8Array): Block | undefined {
    const bytes = this.blocks.getBlockBytes(id);
    return bytes && decodeBlock(bytes);
  }

  blockBytes(id: Uint8Array): Uint8Array | undefined {
    return this.blocks.getBlockBytes(id);
  }

  meta(id: Uint8Array): BlockMeta | undefined {
    return this.blocks.getMeta(id);
  }

  /** The state after the block with this meta (the top block when omitted); HistoryNotHeld below the history floor. */
  stateAt(meta: BlockMeta = this.topMeta): AccountsReader {
    const floor = this.historyFloor();
    if (meta.height < floor) throw new HistoryNotHeld(HistoryErrorCode.StateNotHeld, meta.height, floor);
    return this.accountsAt(meta);
  }

  /** The first topoheight whose state this node holds (0 on an archive node). */
  historyFloor(): bigint {
    return readHistoryFloor(this.deps.store);
  }

  /** A stored block's body; HistoryNotHeld when --prune-blocks dropped it. */
  heldBlock(meta: BlockMeta): Block {
    const block = this.block(meta.id);
    if (!block) throw new HistoryNotHeld(HistoryErrorCode.BlockNotHeld, meta.height, this.blocks.blockFloor());
    return block;
  }

  /** Runs `task` between two stored blocks (in the queue that serialises them), e.g. a pruning write. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  balance(asset: Uint8Array, key: Uint8Array): NonceBalance | undefined {
    return this.stateAt().getBalance(asset, key);
  }

  isRegistered(key: Uint8Array): boolean {
    return this.accountsAt(this.topMeta).getBalance(NATIVE_ASSET, key) !== undefined;
  }

  keyByHashPrefix(prefix: Uint8Array): Uint8Array | undefined {
    return this.accountsAt(this.topMeta).findKeyByHashPrefix(prefix);
  }

  metaAtTopo(topoheight: bigint): BlockMeta | undefined {
    const id = this.blocks.idAtTopo(topoheight);
    return id && this.blocks.getMeta(id);
  }

  /** The main-chain block at a topoheight up to the top; HistoryNotHeld when the node holds no block there (fast sync). */
  heldMetaAtTopo(topoheight: bigint): BlockMeta {
    const meta = this.metaAtTopo(topoheight);
    if (!meta) throw new HistoryNotHeld(HistoryErrorCode.BlockNotHeld, topoheight, this.historyFloor());
    return meta;
  }

  /** Topoheight of a block on the main chain, or null for a side block (height = topoheight on our linear chain). */
  topoOf(meta: BlockMeta): bigint | null {
    const id = this.blocks.idAtTopo(meta.height);
    return id && equalBytes(id, meta.id) ? meta.height : null;
  }

  /** The difficulty a child of `parent` must be mined at. */
  difficultyAfter(parent: BlockMeta): bigint {
    const grandparentId = parent.height > 0n ? this.block(parent.id)?.tips[0] : undefined;
    const grandparent = grandparentId && this.blocks.getMeta(grandparentId);
    return nextDifficulty(this.params, {
      height: parent.height + 1n,
      tipDifficulty: parent.difficulty,
      tipTimestamp: parent.timestamp,
      parentTimestamp: grandparent ? grandparent.timestamp : null,
    });
  }

  /** Number of blocks waiting for a parent this node has not seen. */
  get orphanBlocks(): number {
    return this.orphans.size;
  }

  /**
   * Validates, executes and stores a block; calls are serialised. Throws BlockRejected with the reason. `source` (a
   * peer, `rpc`) is who sent it, for the orphan pool's per-source bound.
   */
  addBlock(bytes: Uint8Array, source = 'local'): Promise<AddBlockOutcome> {
    return this.exclusive(() => this.addBlockNow(bytes, source));
  }

  /** Adds a place to look for transactions a block lists that this node has not stored (the mempool). */
  addTransactionSource(source: TransactionSource): void {
    this.txSources.push(source);
  }

  /** A transaction the chain stores (included in a block, main or side), or undefined. */
  storedTransaction(txid: Uint8Array): Uint8Array | undefined {
    return this.blocks.getTxBytes(txid);
  }

  includingBlock(txid: Uint8Array): Uint8Array | undefined {
    return this.blocks.txBlock(txid);
  }

  /** What a contract transaction's call did in the block that executed it (undefined for other transactions). */
  callOutcome(blockId: Uint8Array, txid: Uint8Array): ContractCallOutcome | undefined {
    return this.blocks.callOutcome(blockId, txid);
  }

  /** A transaction's body from the sources outside the store (the pool, a peer's block, an orphan's). */
  private lentTransaction(txid: Uint8Array): Uint8Array | undefined {
    for (const source of this.txSources) {
      const body = source(txid);
      if (body) return body;
    }
    return undefined;
  }

  private transactionBytes(id: Uint8Array): Uint8Array | undefined {
    return this.blocks.getTxBytes(id) ?? this.lentTransaction(id);
  }

  /**
   * The last template's execution when `block` was mined from it: the same parent, miners, height and transactions,
   * and every transaction's body still the bytes the template executed (an id does not cover a transfer's proofs).
   */
  private templateExecution(block: Block): Execution | undefined {
    const template = this.template;
    if (!template || template.key !== executionKey(block)) return undefined;
    const txs = template.execution.txs;
    const unchanged = txs.every(({ id, bytes }) => {
      const now = this.transactionBytes(id);
      return now !== undefined && equalBytes(now, bytes);
    });
    return unchanged ? template.execution : undefined;
  }

  /** The bodies of a block's transactions, decoded and checked against the ids the block lists. */
  private blockTransactions(block: Block): BlockTransaction[] {
    const seen = new Set<string>();
    let total = 0;
    return block.txHashes.map((id) => {
      const reject = (code: TransactionErrorCode, reason: string): TransactionRejected =>
        new TransactionRejected(id, new TransactionError(code, reason));
      const hex = toHex(id);
      if (seen.has(hex)) throw reject(TransactionErrorCode.ListedTwice, 'listed twice');
      seen.add(hex);
      const bytes = this.transactionBytes(id);
      if (!bytes) throw reject(TransactionErrorCode.Unavailable, 'unknown to this node');
      total += bytes.length;
      if (total > MAX_BLOCK_TX_BYTES)
        throw reject(
          TransactionErrorCode.OverBlockSize,
          `it takes the block's transactions over ${MAX_BLOCK_TX_BYTES} bytes`,
        );
      let tx: Transaction;
      try {
        tx = decodeTransaction(bytes);
      } catch (error) {
        throw reject(TransactionErrorCode.Malformed, `malformed: ${(error as Error).message}`);
      }
      if (!equalBytes(this.deps.core.keccak256(encodeTransactionHeader(tx)), id))
        throw reject(TransactionErrorCode.WrongId, 'does not hash to its id');
      return { id, bytes, tx };
    });
  }

  /** The view of the branch ending at `tip` that transaction rules read the referenced blocks through. */
  private executionView(tip: BlockMeta): ExecutionView {
    // A view serves one block, or the pool's checks on one top: its answers are remembered (every transfer asks for
    // one of the same few reference blocks).
    let onMain: boolean | undefined;
    const ancestors = new Map<bigint, BlockMeta | undefined>();
    const find = (height: bigint): BlockMeta | undefined => {
      // On the main chain the topo index answers at once; a side branch is walked back (a few blocks at most).
      onMain ??= equalBytes(this.blocks.idAtTopo(tip.height) ?? new Uint8Array(0), tip.id);
      if (onMain) return this.metaAtTopo(height);
      let meta: BlockMeta | undefined = tip;
      while (meta && meta.height > height) meta = this.blocks.getMeta(this.block(meta.id)!.tips[0]!);
      return meta;
    };
    return {
      ancestor: (height) => {
        if (!ancestors.has(height)) ancestors.set(height, find(height));
        return ancestors.get(height);
      },
      stateAt: (meta) => this.accountsAt(meta),
    };
  }

  /**
   * Checks that a transaction could go into the next block on the current top (for the mempool); throws a
   * TransactionError naming the reason. Registrations and transfers are checked with the same rules as in a block;
   * contract code does not run.
   */
  checkTransaction(id: Uint8Array, bytes: Uint8Array, tx: Transaction): { nonces: Uint8Array[] } {
    if (!this.deps.executeTransactions)
      throw new TransactionError(TransactionErrorCode.NotExecuted, 'this node does not execute transactions');
    const { top, state, view } = this.pendingCheckBasis();
    return { nonces: this.deps.executeTransactions.checkPending({ id, bytes, tx }, top.height + 1n, state, view) };
  }

  async preverifyTransactions(txs: readonly BlockTransaction[]): Promise<void> {
    if (txs.length > 0) await this.deps.executeTransactions?.prepareBlock(txs, this.pendingCheckBasis().view);
  }

  private pendingCheckBasis(): { top: BlockMeta; state: AccountsReader; view: ExecutionView } {
    const top = this.topMeta;
    const basis = this.pendingBasis;
    if (basis?.top === top && basis.cuts === this.mainChainCuts) return basis;
    this.pendingBasis = { top, cuts: this.mainChainCuts, state: this.stateAt(top), view: this.executionView(top) };
    return this.pendingBasis;
  }

  /** Lets the rules do a block's heavy checks ahead, off the main thread where they can (problems surface in execute). */
  private async prepareTransactions(block: Block, parent: BlockMeta): Promise<void> {
    if (block.txHashes.length === 0 || !this.deps.executeTransactions) return;
    let txs: BlockTransaction[];
    try {
      txs = this.blockTransactions(block);
    } catch {
      return;
    }
    await this.deps.executeTransactions.prepareBlock(txs, this.executionView(parent));
  }

  /** Executes `block` on its parent's state and returns the state root it would have (for block templates). */
  computeStateRoot(block: Block, dropInvalid?: (txid: Uint8Array, reason: string) => void): Uint8Array {
    const parent = this.blocks.getMeta(block.tips[0]!);
    if (!parent) throw new BlockRejected(BlockErrorCode.UnknownTip, 'unknown tip');
    for (;;) {
      try {
        const execution = this.run(block, parent);
        const { root } = execution.state.commit(discardingBatch);
        this.template = { key: executionKey(block), execution };
        return root;
      } catch (error) {
        if (!(dropInvalid && error instanceof TransactionRejected)) throw error;
        block.txHashes = block.txHashes.filter((id) => !equalBytes(id, error.txid));
        dropInvalid(error.txid, error.message);
      }
    }
  }

  /**
   * Builds a block template's state without holding the event loop for long: `block`'s transactions are executed on
   * its tip's state a slice at a time (admission goes on between slices, keeping the verification workers fed), those
   * it cannot take are left out of `block.txHashes` and reported, and the result is committed for its root. The block
   * mined from it commits that state. Returns undefined when blocks left the main chain meanwhile: build again.
   */
  async buildTemplateState(
    block: Block,
    dropInvalid: (txid: Uint8Array, reason: string) => void,
  ): Promise<Uint8Array | undefined> {
    const parent = this.blocks.getMeta(block.tips[0]!);
    if (!parent) throw new BlockRejected(BlockErrorCode.UnknownTip, 'unknown tip');
    const cuts = this.mainChainCuts;
    let candidates: BlockTransaction[];
    for (;;) {
      try {
        candidates = this.blockTransactions(block);
        break;
      } catch (error) {
        if (!(error instanceof TransactionRejected)) throw error;
        block.txHashes = block.txHashes.filter((id) => !equalBytes(id, error.txid));
        dropInvalid(error.txid, error.message);
      }
    }
    const state = this.deps.accounts.write(parent.stateVersion, this.indexedAt(parent));
    const executor = this.deps.executeTransactions;
    if (candidates.length > 0 && !executor)
      throw new BlockRejected(BlockErrorCode.NotExecuted, 'this node does not execute transactions');
    const executed = executor
      ? await executor.executeTemplate(block, state, candidates, this.executionView(parent), dropInvalid)
      : { fees: 0n, calls: [], txs: [] };
    if (this.mainChainCuts !== cuts) return undefined;
    const included = new Set(executed.txs.map(({ id }) => toHex(id)));
    block.txHashes = block.txHashes.filter((id) => included.has(toHex(id)));
    payBlockRewards(block, state, this.deps.math, executed.fees);
    // Admission goes on while the nodes the state root needs are read.
    await state.prefetch();
    if (this.mainChainCuts !== cuts) return undefined;
    const { root } = state.commit(discardingBatch);
    this.template = { key: executionKey(block), execution: { state, txs: [...executed.txs], calls: executed.calls } };
    return root;
  }

  /** Executes `block` on an overlay of its parent's state; throws BlockRejected. */
  private run(block: Block, parent: BlockMeta): Execution {
    const state = this.deps.accounts.write(parent.stateVersion, this.indexedAt(parent));
    let execution: BlockExecution = { fees: 0n, calls: [] };
    const txs = this.blockTransactions(block);
    try {
      if (txs.length > 0) {
        if (!this.deps.executeTransactions)
          throw new BlockRejected(BlockErrorCode.NotExecuted, 'this node does not execute transactions');
        execution = this.deps.executeTransactions.executeBlock(block, state, txs, this.executionView(parent));
      }
      payBlockRewards(block, state, this.deps.math, execution.fees);
    } catch (error) {
      throw error instanceof BlockRejected
        ? error
        : new BlockRejected(BlockErrorCode.ExecutionFailed, (error as Error).message, { cause: error });
    }
    return { state, txs, calls: execution.calls };
  }

  private async addBlockNow(bytes: Uint8Array, source: string): Promise<AddBlockOutcome> {
    const started = performance.now();
    let block: Block;
    try {
      block = decodeBlock(bytes);
    } catch (error) {
      throw new BlockRejected(BlockErrorCode.Malformed, `malformed block: ${(error as Error).message}`);
    }
    const id = this.deps.core.sha3_256(bytes);
    if (this.blocks.hasBlock(id))
      throw new BlockRejected(BlockErrorCode.AlreadyKnown, `block ${toHex(id)} is already known`);
    if (block.tips.length !== 1)
      throw new BlockRejected(
        BlockErrorCode.TipCount,
        `a block must name exactly one tip, it names ${block.tips.length}`,
      );
    // Checked before the parent is looked up: an orphan this low could never join the chain.
    if (this.topMeta.height > STABLE_DEPTH && block.height <= this.stableHeight()) {
      throw new BlockRejected(
        BlockErrorCode.BelowStableHeight,
        `block at height ${block.height} is at or below the stable height ${this.stableHeight()}`,
      );
    }
    const parent = this.blocks.getMeta(block.tips[0]!);
    if (!parent) return this.keepOrphan(block, bytes, id, source);
    checkAgainstParent(block, parent, this.now());
    const difficulty = this.difficultyAfter(parent);
    checkMiniblocks(this.deps.core, this.params, block, difficulty);

    // Taken before any wait: a template built meanwhile must not stand in for this block's.
    let execution = this.templateExecution(block);
    if (!execution) {
      await this.prepareTransactions(block, parent);
      execution = this.run(block, parent);
    }
    const { txs, calls, state } = execution;
    await state.prefetch();
    const batch = this.deps.store.batch();
    const { version, root } = state.commit(batch);
    if (!equalBytes(root, block.stateRoot))
      throw new BlockRejected(
        BlockErrorCode.WrongStateRoot,
        `wrong state root: the block says ${toHex(block.stateRoot)}, executing it gives ${toHex(root)}`,
      );
    const meta: BlockMeta = {
      id,
      height: block.height,
      timestamp: block.timestamp,
      difficulty,
      cumulativeWork: parent.cumulativeWork + difficulty,
      stateVersion: version,
      stateRoot: root,
      size: bytes.length,
      txCount: block.txHashes.length,
      reward: blockReward(block.height),
    };
    this.blocks.putBlock(batch, meta, bytes);
    for (const tx of txs) this.blocks.putTx(batch, tx.id, tx.bytes);
    for (const call of calls) this.blocks.putCallOutcome(batch, id, call.txid, call.outcome);
    const outcome = await this.writeIndexed(batch, () =>
      this.chooseFork(batch, meta, block, () => state.balanceWrites()),
    );
    if (this.balanceIndex.from === undefined) await this.buildBalanceIndex();
    this.timings.blockApplied((performance.now() - started) / 1000);
    if (outcome.status === 'main') this.topMeta = meta;
    this.deps.logger.debug(
      `block ${toHex(id)} at height ${meta.height}: ${outcome.status}${outcome.status === 'main' && outcome.reorganised ? ' (reorganisation)' : ''}`,
    );
    this.notifyListeners(meta, outcome);
    await this.adoptOrphans(id);
    return outcome;
  }

  /**
   * Fast sync: stores consecutive blocks whose states were imported from a snapshot (their versions and the history
   * floor already in `batch`) as the main chain's base, and makes the last one the top; nothing below them is held.
   * A transaction body that does not hash to its id in its block refuses the whole base.
   */
  adoptBase(batch: WriteBatch, metas: BlockMeta[], blocks: { bytes: Uint8Array; txs: Uint8Array[] }[]): Promise<void> {
    const run = this.queue.then(async () => {
      metas.forEach((meta, i) => {
        const { bytes, txs } = blocks[i]!;
        const { txHashes } = decodeBlock(bytes);
        if (txs.length !== txHashes.length) throw new Error(`block ${toHex(meta.id)} came without its transactions`);
        txs.forEach((body, j) => {
          if (!equalBytes(this.deps.core.keccak256(encodeTransactionHeader(decodeTransaction(body))), txHashes[j]!))
            throw new Error(`a transaction of block ${toHex(meta.id)} does not hash to its id`);
          this.blocks.putTx(batch, txHashes[j]!, body);
        });
        this.blocks.putBlock(batch, meta, bytes);
        this.blocks.setMain(batch, meta.height, meta.id, txHashes);
      });
      const top = metas[metas.length - 1]!;
      this.blocks.setTop(batch, top.height);
      this.mainChainCuts++;
      this.balanceIndex.drop(batch);
      await batch.write();
      this.topMeta = top;
      await this.buildBalanceIndex();
      this.notifyListeners(top, { status: 'main', id: top.id, reorganised: false });
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  rewindTo(id: Uint8Array): Promise<BlockMeta> {
    return this.exclusive(async () => {
      const target = this.blocks.getMeta(id);
      if (!target || this.topoOf(target) === null) throw new Error(`block ${toHex(id)} is not on the main chain`);
      const previousTop = this.topMeta;
      const batch = this.deps.store.batch();
      await this.writeIndexed(batch, () => {
        this.forgetAbove(batch, target.height);
        for (let height = previousTop.height; height > target.height; height--)
          this.blocks.unsetMain(batch, height, this.block(this.blocks.idAtTopo(height)!)!.txHashes);
        this.blocks.setTop(batch, target.height);
      });
      this.topMeta = target;
      if (this.balanceIndex.from === undefined) await this.buildBalanceIndex();
      if (previousTop.height !== target.height)
        this.notifyListeners(target, { status: 'main', id, reorganised: true, dropped: [], previousTop });
      return target;
    });
  }

  /**
   * Tells every listener of a stored block. The block is committed by now: a failing listener is logged, and neither
   * undoes it nor keeps the other listeners from hearing of it.
   */
  private notifyListeners(meta: BlockMeta, outcome: AddBlockOutcome): void {
    for (const listener of this.listeners) {
      try {
        listener(meta, outcome);
      } catch (error) {
        this.deps.logger.error(
          `a listener failed on block ${toHex(meta.id)}: ${(error as Error)?.stack ?? String(error)}`,
        );
      }
    }
  }

  /**
   * Takes the balances of the main-chain blocks above `height` out of the balance index (they leave the main chain);
   * when that reaches below where the index starts, the index is dropped, to be built again once the batch is written.
   */
  private forgetAbove(batch: WriteBatch, height: bigint): void {
    if (height < this.topMeta.height) this.mainChainCuts++;
    if (this.balanceIndex.from === undefined) return;
    if (height < this.balanceIndex.from) {
      this.balanceIndex.drop(batch);
      return;
    }
    let child = this.topMeta;
    while (child.height > height) {
      const parent = this.metaAtTopo(child.height - 1n)!;
      this.balanceIndex.forget(batch, child.height, this.balancesWrittenBy(child, parent));
      child = parent;
    }
  }

  /**
   * Makes `meta` the main-chain top when it carries more work; rewrites the index back to the fork point if needed,
   * and the balance index with it (`writes`: the balances the new block wrote).
   */
  private chooseFork(batch: WriteBatch, meta: BlockMeta, block: Block, writes: () => BalanceEntry[]): AddBlockOutcome {
    if (meta.cumulativeWork <= this.topMeta.cumulativeWork) return { status: 'side', id: meta.id };
    // Walk the new branch back to the main chain, collecting the blocks that join it.
    const joining: { meta: BlockMeta; block: Block }[] = [{ meta, block }];
    let cursor = block.tips[0]!;
    for (;;) {
      const cursorMeta = this.blocks.getMeta(cursor)!;
      if (this.topoOf(cursorMeta) !== null) break;
      const cursorBlock = this.block(cursor)!;
      joining.push({ meta: cursorMeta, block: cursorBlock });
      cursor = cursorBlock.tips[0]!;
    }
    const forkHeight = this.blocks.getMeta(cursor)!.height;
    if (forkHeight < this.stableHeight()) {
      this.deps.logger.warn(
        `refusing a reorganisation below the stable height (fork at ${forkHeight}, stable ${this.stableHeight()})`,
      );
      return { status: 'side', id: meta.id };
    }
    this.forgetAbove(batch, forkHeight);
    const dropped = new Map<string, Uint8Array>();
    for (let height = this.topMeta.height; height > forkHeight; height--) {
      const old = this.block(this.blocks.idAtTopo(height)!)!;
      this.blocks.unsetMain(batch, height, old.txHashes);
      for (const txid of old.txHashes) dropped.set(toHex(txid), txid);
    }
    joining.forEach(({ meta: m, block: b }, i) => {
      this.blocks.setMain(batch, m.height, m.id, b.txHashes);
      for (const txid of b.txHashes) dropped.delete(toHex(txid));
      if (!this.balanceIndex.covers(m.height)) return;
      const parent = joining[i + 1]?.meta ?? this.blocks.getMeta(cursor)!;
      this.balanceIndex.record(batch, m.height, i === 0 ? writes() : this.balancesWrittenBy(m, parent));
    });
    this.blocks.setTop(batch, meta.height);
    const reorganised = joining.length > 1 || forkHeight !== this.topMeta.height;
    return {
      status: 'main',
      id: meta.id,
      reorganised,
      dropped: [...dropped.values()],
      ...(reorganised && { previousTop: this.topMeta }),
    };
  }

  /**
   * Keeps a block whose parent is unknown, once it passed every check that needs no parent: its own fields and the
   * proof of work of each miniblock at the network's minimum difficulty (a block of another network, or junk, fails).
   * The bodies of its transactions known now (lent by the peer that sent it, or in the pool) are kept with it: they
   * may be gone when its parent comes.
   */
  private keepOrphan(block: Block, bytes: Uint8Array, id: Uint8Array, source: string): AddBlockOutcome {
    checkStandalone(block, this.now());
    checkMiniblocks(this.deps.core, this.params, block, this.params.minimumDifficulty);
    const txs = new Map<string, Uint8Array>();
    for (const txid of block.txHashes) {
      const body = this.lentTransaction(txid);
      if (body) txs.set(toHex(txid), body);
    }
    this.orphans.keep(id, block.tips[0]!, bytes, source, txs);
    return { status: 'orphan', id };
  }

  /** Blocks that were waiting for `parentId` get their turn now, with the transaction bodies they came with. */
  private async adoptOrphans(parentId: Uint8Array): Promise<void> {
    for (const orphan of this.orphans.takeChildrenOf(parentId)) {
      // Set anew for each orphan: adding one adopts its own children, with their bodies, once it is executed.
      this.adoptedTxs = orphan.txs;
      await this.addBlockNow(orphan.bytes, 'orphan pool').catch((error: Error) =>
        this.deps.logger.debug(`orphan rejected: ${error.message}`),
      );
    }
    this.adoptedTxs = new Map();
  }
}
