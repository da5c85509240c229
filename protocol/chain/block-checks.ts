/**
 * Context checks of a block against its parent, in the order of docs/protocol.md § Consensus rules (adapted to Umbra's linear
 * chain): tips and height, timestamp, version, miniblocks and their proof of work. Each failure throws a
 * BlockRejected naming the rule; nothing here touches state. The proof of work is split from the other miniblock rules
 * so that a caller with many blocks to check (a light client) can hash their miniblocks on other threads.
 */
import type { Block } from '../block.js';
import { encodeBlock } from '../block.js';
import { equalBytes } from '../bytes.js';
import { MAX_FUTURE_DRIFT_MS, type ChainParams } from '../chain-params.js';
import { encodeMiniblock, FINAL_DIFFICULTY_MULTIPLIER, MINIBLOCKS_PER_BLOCK, pastOf } from '../miniblock.js';
import { TxType } from '../transaction.js';
import type { Core } from '../../core-native/ts/core.js';
import { meetsTarget } from '../../core-native/ts/pow-target.js';
import { BlockErrorCode, BlockRejected } from './block-errors.js';

export const BLOCK_MAJOR_VERSION = 1;
export const BLOCK_MINOR_VERSION = 1;

/** What a block is checked against of its parent. */
export interface ParentLink {
  height: bigint;
  /** Milliseconds since the epoch. */
  timestamp: bigint;
}

/** One miniblock's proof of work still to check: its 48 bytes must hash to at most 2^256 / difficulty. */
export interface PowChallenge {
  /** Index of the miniblock in its block. */
  miniblock: number;
  blob: Uint8Array;
  difficulty: bigint;
}

/** The checks a block passes on its own, without its parent: one tip, not from the future, the version, a coinbase. */
export function checkStandalone(block: Block, nowMs: bigint): void {
  if (block.tips.length !== 1)
    throw new BlockRejected(
      BlockErrorCode.TipCount,
      `a block must name exactly one tip, it names ${block.tips.length}`,
    );
  if (block.timestamp > nowMs + MAX_FUTURE_DRIFT_MS)
    throw new BlockRejected(
      BlockErrorCode.TimestampInFuture,
      `timestamp ${block.timestamp} is in the future (local clock ${nowMs})`,
    );
  if (block.majorVersion !== BLOCK_MAJOR_VERSION || block.minorVersion !== BLOCK_MINOR_VERSION) {
    throw new BlockRejected(
      BlockErrorCode.UnsupportedVersion,
      `unsupported block version ${block.majorVersion}.${block.minorVersion}`,
    );
  }
  if (block.minerTx.type !== TxType.Coinbase)
    throw new BlockRejected(BlockErrorCode.MinerTxNotCoinbase, 'the miner transaction must be COINBASE');
}

export function checkAgainstParent(block: Block, parent: ParentLink, nowMs: bigint): void {
  checkStandalone(block, nowMs);
  if (block.height !== parent.height + 1n)
    throw new BlockRejected(
      BlockErrorCode.WrongHeight,
      `wrong height ${block.height}: the tip is at ${parent.height}, so ${parent.height + 1n} was expected`,
    );
  if (block.timestamp < parent.timestamp)
    throw new BlockRejected(
      BlockErrorCode.TimestampBeforeTip,
      `timestamp ${block.timestamp} is before its tip's ${parent.timestamp}`,
    );
}

/** The 16-byte KeyHash the final miniblock must carry: SHA3-256 of the block with its first nine miniblocks. */
export function finalKeyHash(core: Core, block: Block): Uint8Array {
  return core.sha3_256(encodeBlock(block, MINIBLOCKS_PER_BLOCK - 1)).slice(0, 16);
}

/**
 * The miniblock rules that need no hashing (docs/protocol.md § Miniblocks and proof of work): ten miniblocks, nine
 * distinct ordinary ones then the final one, all for this height and tip.
 */
export function checkMiniblockRules(block: Block): void {
  const mbs = block.miniblocks;
  if (mbs.length !== MINIBLOCKS_PER_BLOCK)
    throw new BlockRejected(
      BlockErrorCode.MiniblockCount,
      `a block needs ${MINIBLOCKS_PER_BLOCK} miniblocks, it has ${mbs.length}`,
    );
  const tipPast = pastOf(block.tips[0]!);
  const seen = new Set<string>();
  mbs.forEach((mb, i) => {
    const isLast = i === MINIBLOCKS_PER_BLOCK - 1;
    if (mb.final !== isLast || mb.highDiff !== isLast)
      throw new BlockRejected(
        BlockErrorCode.MiniblockFlags,
        `miniblock ${i} must ${isLast ? '' : 'not '}be the final, high-difficulty one`,
      );
    if (mb.height !== block.height)
      throw new BlockRejected(
        BlockErrorCode.MiniblockHeight,
        `miniblock ${i} is for height ${mb.height}, not ${block.height}`,
      );
    if (mb.pastCount !== 1 || mb.past[0] !== tipPast || mb.past[1] !== 0)
      throw new BlockRejected(BlockErrorCode.MiniblockTip, `miniblock ${i} was mined on another tip`);
    const id = Buffer.from(encodeMiniblock(mb)).toString('hex');
    if (seen.has(id)) throw new BlockRejected(BlockErrorCode.DuplicateMiniblock, `miniblock ${i} is a duplicate`);
    seen.add(id);
  });
}

/** The final miniblock commits to the block (checked after the proof of work, which a changed miniblock fails first). */
export function checkFinalCommitment(core: Core, block: Block): void {
  if (!equalBytes(block.miniblocks[MINIBLOCKS_PER_BLOCK - 1]!.keyHash, finalKeyHash(core, block)))
    throw new BlockRejected(BlockErrorCode.FinalKeyHash, 'the final miniblock does not commit to this block');
}

/** The proof of work a block's miniblocks owe at `difficulty` (9× for the final one); none where PoW is not checked. */
export function powChallenges(params: ChainParams, block: Block, difficulty: bigint): PowChallenge[] {
  if (!params.checkPow) return [];
  return block.miniblocks.map((mb, i) => ({
    miniblock: i,
    blob: encodeMiniblock(mb),
    difficulty: mb.final ? difficulty * FINAL_DIFFICULTY_MULTIPLIER : difficulty,
  }));
}

/** The rejection of a block whose miniblock fails its challenge. */
export function powFailure(challenge: PowChallenge): BlockRejected {
  return new BlockRejected(
    BlockErrorCode.BadPow,
    `miniblock ${challenge.miniblock} does not meet its proof-of-work target (difficulty ${challenge.difficulty})`,
  );
}

/** Hashes each challenge on this thread; throws the rejection of the first that fails. */
export function checkPow(core: Core, challenges: readonly PowChallenge[]): void {
  for (const challenge of challenges)
    if (!meetsTarget(core.powHash(challenge.blob), challenge.difficulty)) throw powFailure(challenge);
}

/** Every miniblock rule, the proof of work hashed on this thread (unless the network skips PoW). */
export function checkMiniblocks(core: Core, params: ChainParams, block: Block, difficulty: bigint): void {
  checkMiniblockRules(block);
  checkPow(core, powChallenges(params, block, difficulty));
  checkFinalCommitment(core, block);
}
