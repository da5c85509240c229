/**
 * Block templates and miniblock collection (docs/protocol.md § Block templates). For the next block on the current top,
 * miners first solve nine ordinary miniblocks, each carrying its miner's key hash, at the block difficulty; once nine
 * are pooled, the next job is the final miniblock, which commits to the whole block (coinbase key, the nine
 * miniblocks, state root) and must meet 9× the difficulty. A solved final miniblock completes the block, which goes
 * through the chain's full validation.
 */
import { randomInt } from 'node:crypto';
import type { Core } from '../../core-native/ts/core.js';
import { meetsTarget } from '../../core-native/ts/pow-target.js';
import type { Logger } from '../../host/logger.js';
import {
  encodeBlock,
  MAX_BLOCK_TX_BYTES,
  MAX_BLOCK_TXS,
  nextBlockTimestamp,
  type Block,
} from '../../protocol/block.js';
import { equalBytes, toHex } from '../../protocol/bytes.js';
import {
  decodeMiniblock,
  encodeMiniblock,
  FINAL_DIFFICULTY_MULTIPLIER,
  MINIBLOCKS_PER_BLOCK,
  pastOf,
  type Miniblock,
} from '../../protocol/miniblock.js';
import { coinbaseTx } from '../../protocol/transaction.js';
import type { AddBlockOutcome, BlockMeta, ChainService } from '../../host/services/chain.js';
import { MiniblockErrorCode, MiniblockRejected, type MiniblockPoolService } from '../../host/services/miniblocks.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';

export interface MiningJob {
  id: string;
  tip: Uint8Array;
  height: bigint;
  /** The 48-byte miniblock to solve (nonce and flags are the miner's to vary). */
  blob: Uint8Array;
  /** The difficulty this blob must meet: the block difficulty, or 9× it for the final miniblock. */
  difficulty: bigint;
  /** The block difficulty. */
  blockDifficulty: bigint;
  final: boolean;
  /** The block being completed: always for a final job, on request for an ordinary one (with the miniblocks so far). */
  block?: Block;
}

export interface SubmitResult {
  jobid: string;
  mblid: string;
  blid?: string;
  status: 'OK';
  /** An ordinary miniblock was accepted into the pool. */
  mini: boolean;
  /** The submission completed a block that the chain accepted. */
  block_found: boolean;
}

/** Jobs remembered for submission: a few per connected miner and change of work. */
const MAX_JOBS = 4096;
const ORDINARY_MINIBLOCKS = MINIBLOCKS_PER_BLOCK - 1;
/** Transaction bytes a template takes: the block limit less a margin (docs/protocol.md § Block templates). */
const TEMPLATE_TX_BYTES = MAX_BLOCK_TX_BYTES - 100 * 1024;

export class MiningService implements MiniblockPoolService {
  private readonly pools = new Map<string, Miniblock[]>();
  private readonly jobs = new Map<string, MiningJob>();
  private counter = 0;
  private readonly listeners = new Set<() => void>();
  private readonly miniblockListeners = new Set<(blob: Uint8Array) => void>();
  /** Blocks completed by a submission here (GetInfo's blocks_count). */
  blocksFound = 0;
  miniblocksAccepted = 0;
  miniblocksRejected = 0;
  private hashRate: () => number = () => 0;
  /** A final template's block built ahead by `prepareFinal`, for the tip and miner it was built for. */
  private prepared: { tip: string; minerKey: string; block: Block } | undefined;

  constructor(
    private readonly chain: ChainService,
    private readonly core: Core,
    private readonly logger: Logger,
    private readonly now: () => bigint = () => BigInt(Date.now()),
    /** The transaction pool, when the mempool plugin runs. */
    private readonly txPool: () => TxPoolService | undefined = () => undefined,
  ) {
    chain.onBlock(() => {
      const top = toHex(chain.top.id);
      for (const tip of this.pools.keys()) if (tip !== top) this.pools.delete(tip);
      if (this.prepared?.tip !== top) this.prepared = undefined;
      this.changed();
    });
  }

  /** Called whenever what miners should work on changes (new top, pool filled). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Pool transactions for a template, best first, within the block's transaction budget. */
  private templateTransactions(): Uint8Array[] {
    const pool = this.txPool();
    if (!pool) return [];
    const chosen: Uint8Array[] = [];
    let bytes = 0;
    for (const id of pool.pending()) {
      const size = pool.get(id)?.length ?? 0;
      if (chosen.length >= MAX_BLOCK_TXS || bytes + size > TEMPLATE_TX_BYTES) break;
      chosen.push(id);
      bytes += size;
    }
    return chosen;
  }

  onMiniblock(listener: (blob: Uint8Array) => void): () => void {
    this.miniblockListeners.add(listener);
    return () => this.miniblockListeners.delete(listener);
  }

  accept(blob: Uint8Array): boolean {
    let mb: Miniblock;
    try {
      mb = decodeMiniblock(blob);
    } catch (error) {
      throw new MiniblockRejected(MiniblockErrorCode.Malformed, `malformed miniblock: ${(error as Error).message}`);
    }
    if (mb.final)
      throw new MiniblockRejected(
        MiniblockErrorCode.FinalAlone,
        'a final miniblock travels inside its block, not alone',
      );
    const tip = this.chain.top;
    // For another tip or height it is stale or early here: not the sender's fault.
    if (mb.height !== tip.height + 1n || mb.past[0] !== pastOf(tip.id) || mb.pastCount !== 1) return false;
    if (!this.chain.keyByHashPrefix(mb.keyHash))
      throw new MiniblockRejected(
        MiniblockErrorCode.UnregisteredMiner,
        'the miniblock names a miner key that is not registered',
      );
    if (this.chain.params.checkPow && !meetsTarget(this.core.powHash(blob), this.chain.difficultyAfter(tip))) {
      throw new MiniblockRejected(MiniblockErrorCode.BadPow, 'the miniblock does not meet the block difficulty');
    }
    return this.pool(tip.id, mb, blob) === 'pooled';
  }

  /** Adds an ordinary miniblock to the pool for `tip`, telling listeners; or says why it is not added. */
  private pool(tip: Uint8Array, mb: Miniblock, blob: Uint8Array): 'pooled' | 'duplicate' | 'full' {
    const key = toHex(tip);
    const pool = this.pools.get(key) ?? [];
    if (pool.some((other) => equalBytes(encodeMiniblock(other), blob))) return 'duplicate';
    if (pool.length >= ORDINARY_MINIBLOCKS) return 'full';
    pool.push(mb);
    this.pools.set(key, pool);
    this.changed();
    for (const listener of this.miniblockListeners) listener(blob);
    return 'pooled';
  }

  /** Ordinary miniblocks pooled for the next block on the current top. */
  pooledCount(): number {
    return this.pools.get(toHex(this.chain.top.id))?.length ?? 0;
  }

  /**
   * A job for `minerKey` (registered, 33-byte compressed): an ordinary miniblock, or the final one once nine are
   * pooled. A final job always carries the block it completes; an ordinary one carries the block as it stands (the
   * miniblocks pooled so far) when `withBlock` asks for it.
   */
  template(minerKey: Uint8Array, withBlock = false): MiningJob {
    if (!this.chain.isRegistered(minerKey))
      throw new MiniblockRejected(MiniblockErrorCode.UnregisteredMiner, 'miner address is not registered');
    const tip = this.chain.top;
    const height = tip.height + 1n;
    const blockDifficulty = this.chain.difficultyAfter(tip);
    const pooled = (this.pools.get(toHex(tip.id)) ?? []).slice(0, ORDINARY_MINIBLOCKS);
    const now = this.now();
    const final = pooled.length === ORDINARY_MINIBLOCKS;
    const ready = this.prepared;
    const block =
      final && ready?.tip === toHex(tip.id) && ready.minerKey === toHex(minerKey)
        ? ready.block
        : final || withBlock
          ? this.candidateBlock(minerKey, tip, pooled, now)
          : undefined;
    const mb: Miniblock = {
      version: 1,
      highDiff: final,
      final,
      pastCount: 1,
      timestamp: Number(now & 0xffffn),
      height,
      past: [pastOf(tip.id), 0],
      // An ordinary miniblock names its miner; the final one commits to the block it completes.
      keyHash: final
        ? this.core.sha3_256(encodeBlock(block!, ORDINARY_MINIBLOCKS)).slice(0, 16)
        : this.core.blake2s256(minerKey).slice(0, 16),
      flags: 0,
      nonce: [randomInt(2 ** 32 - 1), randomInt(2 ** 32 - 1), 0],
    };
    const job: MiningJob = {
      id: `${now}.${++this.counter}.${pooled.length}`,
      tip: tip.id,
      height,
      blob: encodeMiniblock(mb),
      difficulty: final ? blockDifficulty * FINAL_DIFFICULTY_MULTIPLIER : blockDifficulty,
      blockDifficulty,
      final,
      ...(block ? { block } : {}),
    };
    this.jobs.set(job.id, job);
    if (this.jobs.size > MAX_JOBS) this.jobs.delete(this.jobs.keys().next().value!);
    return job;
  }

  /**
   * Builds the block of `minerKey`'s final job ahead, once nine miniblocks are pooled, its state built without
   * holding the event loop (the pool keeps admitting meanwhile, from the snapshot of it the block takes); `template`
   * then hands it out instead of building it there.
   */
  async prepareFinal(minerKey: Uint8Array): Promise<void> {
    const tip = this.chain.top;
    const pooled = (this.pools.get(toHex(tip.id)) ?? []).slice(0, ORDINARY_MINIBLOCKS);
    if (pooled.length < ORDINARY_MINIBLOCKS) return;
    for (;;) {
      const block = this.blockSkeleton(minerKey, tip, pooled, this.now());
      const root = await this.chain.buildTemplateState(block, (txid, reason) => this.leaveOut(txid, reason));
      if (!equalBytes(this.chain.top.id, tip.id)) return;
      if (root === undefined) continue;
      block.stateRoot = root;
      this.prepared = { tip: toHex(tip.id), minerKey: toHex(minerKey), block };
      return;
    }
  }

  /** A transaction a template cannot take goes from the pool. */
  private leaveOut(txid: Uint8Array, reason: string): void {
    this.logger.info(`template leaves out ${reason}`);
    this.txPool()?.remove(txid);
  }

  /** The block `minerKey` would complete on `tip` with the `pooled` miniblocks and transactions, its root not set. */
  private blockSkeleton(minerKey: Uint8Array, tip: BlockMeta, pooled: Miniblock[], now: bigint): Block {
    return {
      majorVersion: 1,
      minorVersion: 1,
      timestamp: nextBlockTimestamp(now, tip.timestamp),
      height: tip.height + 1n,
      minerTx: coinbaseTx(minerKey),
      stateRoot: new Uint8Array(32),
      tips: [tip.id],
      miniblocks: pooled,
      txHashes: this.templateTransactions(),
    };
  }

  /** The block `minerKey` would complete on `tip` with the `pooled` miniblocks, transactions and state root included. */
  private candidateBlock(minerKey: Uint8Array, tip: BlockMeta, pooled: Miniblock[], now: bigint): Block {
    const block = this.blockSkeleton(minerKey, tip, pooled, now);
    block.stateRoot = this.chain.computeStateRoot(block, (txid, reason) => this.leaveOut(txid, reason));
    return block;
  }

  /** The built-in miner's hash rate, once the plugin has one (see `reportHashRate`). */
  minerHashRate(): number {
    return this.hashRate();
  }

  /** Where `minerHashRate` reads the built-in miner's rate. */
  reportHashRate(rate: () => number): void {
    this.hashRate = rate;
  }

  /**
   * Mines one block at once for `minerKey` on a network that checks no proof of work (the simulator): every
   * template's blob is already a solution. Returns the new block's id.
   */
  async mineWithoutWork(minerKey: Uint8Array): Promise<string> {
    if (this.chain.params.checkPow) throw new Error('this network checks proof of work: blocks must be mined');
    for (;;) {
      if (this.pooledCount() === ORDINARY_MINIBLOCKS) await this.prepareFinal(minerKey);
      const job = this.template(minerKey);
      const result = await this.submit(job.id, job.blob);
      if (result.block_found) return result.blid!;
    }
  }

  /** Adds a complete block (mined elsewhere) to the chain. */
  async submitBlock(
    bytes: Uint8Array,
  ): Promise<{ blid: string; status: 'OK'; outcome: 'main' | 'side'; block_found: boolean; mini: false }> {
    const outcome = await this.addToChain(bytes, 'rpc');
    // A block kept for a parent this node lacks is not in the chain: it is not answered as found.
    if (outcome.status === 'orphan')
      throw new MiniblockRejected(
        MiniblockErrorCode.BlockWaitsForParent,
        `block ${toHex(outcome.id)} is not in the chain: its parent is unknown here; it is kept for 10 minutes and joins the chain if the parent arrives`,
      );
    return { blid: toHex(outcome.id), status: 'OK', outcome: outcome.status, block_found: true, mini: false };
  }

  /** Adds a block to the chain; a block the chain refuses becomes a MiniblockRejected with the chain's reason. */
  private async addToChain(bytes: Uint8Array, source?: string): Promise<AddBlockOutcome> {
    try {
      return await this.chain.addBlock(bytes, source);
    } catch (error) {
      throw new MiniblockRejected(MiniblockErrorCode.BlockRejected, `block rejected: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /**
   * Accepts a solved miniblock for a job: pools an ordinary one, or completes and submits the block. The proof of work
   * is checked first, right after finding the job's target, so that a flood of unsolved blobs costs one hash each.
   * Every answer, accepted or refused, is counted (GetInfo's miniblocks_accepted_count, miniblocks_rejected_count).
   */
  async submit(jobId: string, blob: Uint8Array): Promise<SubmitResult> {
    try {
      const result = await this.submitChecked(jobId, blob);
      this.miniblocksAccepted++;
      return result;
    } catch (error) {
      this.miniblocksRejected++;
      throw error;
    }
  }

  private async submitChecked(jobId: string, blob: Uint8Array): Promise<SubmitResult> {
    const job = this.jobs.get(jobId);
    if (!job)
      throw new MiniblockRejected(
        MiniblockErrorCode.UnknownJob,
        `job ${jobId} not found (it expired or never existed): ask for a new template`,
      );
    if (blob.length !== job.blob.length)
      throw new MiniblockRejected(
        MiniblockErrorCode.Malformed,
        `submitted miniblock could not be decoded: a miniblock is ${job.blob.length} bytes, this one ${blob.length}`,
      );
    if (this.chain.params.checkPow && !meetsTarget(this.core.powHash(blob), job.difficulty)) {
      throw new MiniblockRejected(
        MiniblockErrorCode.BadPow,
        `invalid proof of work: the miniblock does not meet difficulty ${job.difficulty}`,
      );
    }
    let mb: Miniblock;
    try {
      mb = decodeMiniblock(blob);
    } catch (error) {
      throw new MiniblockRejected(
        MiniblockErrorCode.Malformed,
        `submitted miniblock could not be decoded: ${(error as Error).message}`,
      );
    }
    const expected = decodeMiniblock(job.blob);
    if (
      mb.height !== expected.height ||
      mb.final !== expected.final ||
      mb.highDiff !== expected.highDiff ||
      mb.pastCount !== expected.pastCount ||
      mb.past[0] !== expected.past[0] ||
      mb.past[1] !== expected.past[1] ||
      !equalBytes(mb.keyHash, expected.keyHash)
    ) {
      throw new MiniblockRejected(
        MiniblockErrorCode.NotOfJob,
        'the submitted miniblock does not belong to this job (only timestamp, flags and nonce may change)',
      );
    }
    if (!equalBytes(job.tip, this.chain.top.id))
      throw new MiniblockRejected(
        MiniblockErrorCode.StaleJob,
        'stale job: the chain has moved to a new top; ask for a new template',
      );
    const mblid = toHex(this.core.sha3_256(blob));
    if (!job.final) {
      const added = this.pool(job.tip, mb, blob);
      if (added === 'duplicate')
        throw new MiniblockRejected(MiniblockErrorCode.Duplicate, `duplicate miniblock ${mblid}`);
      if (added === 'full')
        throw new MiniblockRejected(
          MiniblockErrorCode.PoolFull,
          'the next block already has its nine miniblocks: ask for a new template',
        );
      return { jobid: jobId, mblid, status: 'OK', mini: true, block_found: false };
    }
    const block: Block = { ...job.block!, miniblocks: [...job.block!.miniblocks, mb] };
    const bytes = encodeBlock(block);
    await this.addToChain(bytes);
    this.blocksFound++;
    const blid = toHex(this.core.sha3_256(bytes));
    this.logger.info(`found block ${blid} at height ${block.height}`);
    return { jobid: jobId, mblid, blid, status: 'OK', mini: false, block_found: true };
  }
}
