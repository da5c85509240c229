/**
 * A header chain checked without state: the blocks after a known one, one by one, against the rules that need no
 * state — tip and height, timestamps, version, the difficulty each block must be mined at, every miniblock's proof of
 * work — adding up the cumulative work. Transactions and state roots are not checked here; the state root each
 * header carries is what proofs of the state are checked against (fast sync's chunks, a light client's reads).
 */
import type { Core } from '../../core-native/ts/core.js';
import { decodeBlock, type Block } from '../block.js';
import { equalBytes, toHex } from '../bytes.js';
import type { ChainParams } from '../chain-params.js';
import {
  checkAgainstParent,
  checkFinalCommitment,
  checkMiniblockRules,
  checkPow,
  powChallenges,
  type PowChallenge,
} from './block-checks.js';
import { BlockErrorCode, BlockRejected } from './block-errors.js';
import { nextDifficulty } from './difficulty.js';

/** What the checks of a block take from the one before it, and what they give for the block that passes. */
export interface ChainHeader {
  id: Uint8Array;
  height: bigint;
  /** Milliseconds since the epoch. */
  timestamp: bigint;
  /** Difficulty the block's miniblocks were mined at. */
  difficulty: bigint;
  /** Sum of the difficulties from genesis through this block: the fork-choice weight. */
  cumulativeWork: bigint;
  /** The root of the state after this block. */
  stateRoot: Uint8Array;
}

/**
 * A block that passed every rule but two: its proof of work, which `pow` lists (empty where PoW is not checked), and
 * then its final miniblock's commitment (checkFinalCommitment).
 */
export interface LinkedHeader {
  header: ChainHeader;
  block: Block;
  pow: PowChallenge[];
}

export class HeaderChain {
  constructor(
    private readonly core: Core,
    private readonly params: ChainParams,
    /** The last header checked (or trusted). */
    private tip: ChainHeader,
    /** The timestamp of the tip's parent, null when the tip is genesis: the difficulty rule reads it. */
    private tipParentTimestamp: bigint | null,
    private readonly now: () => bigint,
  ) {}

  /**
   * Checks the block after the tip (as serialised) against every rule but its proof of work and its final commitment,
   * and makes it the tip; throws BlockRejected. The caller checks those two, in that order, and drops this chain if
   * either fails.
   */
  link(bytes: Uint8Array): LinkedHeader {
    let block: Block;
    try {
      block = decodeBlock(bytes);
    } catch (error) {
      throw new BlockRejected(BlockErrorCode.Malformed, `malformed block: ${(error as Error).message}`);
    }
    if (block.tips.length !== 1 || !equalBytes(block.tips[0]!, this.tip.id))
      throw new BlockRejected(
        BlockErrorCode.UnknownTip,
        `block at height ${block.height} does not follow ${toHex(this.tip.id)}`,
      );
    checkAgainstParent(block, this.tip, this.now());
    const difficulty = nextDifficulty(this.params, {
      height: block.height,
      tipDifficulty: this.tip.difficulty,
      tipTimestamp: this.tip.timestamp,
      parentTimestamp: this.tipParentTimestamp,
    });
    checkMiniblockRules(block);
    const header: ChainHeader = {
      id: this.core.sha3_256(bytes),
      height: block.height,
      timestamp: block.timestamp,
      difficulty,
      cumulativeWork: this.tip.cumulativeWork + difficulty,
      stateRoot: block.stateRoot,
    };
    this.tipParentTimestamp = this.tip.timestamp;
    this.tip = header;
    return { header, block, pow: powChallenges(this.params, block, difficulty) };
  }

  /** Checks the block after the tip against every rule, its proof of work hashed on this thread. */
  next(bytes: Uint8Array): { header: ChainHeader; block: Block } {
    const { header, block, pow } = this.link(bytes);
    checkPow(this.core, pow);
    checkFinalCommitment(this.core, block);
    return { header, block };
  }
}
