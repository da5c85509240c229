/**
 * Context checks of a block against its parent, in the order of docs/protocol.md § Consensus rules (adapted to Umbra's linear
 * chain): tips and height, timestamp, version, miniblocks and their proof of work. Each failure throws a
 * BlockRejected naming the rule; nothing here touches state.
 */
import type { Block } from '../../protocol/block.js';
import { encodeBlock } from '../../protocol/block.js';
import { equalBytes } from '../../protocol/bytes.js';
import { MAX_FUTURE_DRIFT_MS, type ChainParams } from '../../protocol/chain-params.js';
import {
  encodeMiniblock,
  FINAL_DIFFICULTY_MULTIPLIER,
  MINIBLOCKS_PER_BLOCK,
  pastOf,
} from '../../protocol/miniblock.js';
import { TxType } from '../../protocol/transaction.js';
import type { Core } from '../../core-native/ts/core.js';
import { meetsTarget } from '../../core-native/ts/pow-target.js';
import { BlockErrorCode, BlockRejected } from './block-errors.js';
import type { BlockMeta } from './chain-store.js';

export const BLOCK_MAJOR_VERSION = 1;
export const BLOCK_MINOR_VERSION = 1;

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

export function checkAgainstParent(block: Block, parent: BlockMeta, nowMs: bigint): void {
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
 * Miniblock rules (docs/protocol.md § Miniblocks and proof of work): ten miniblocks, nine distinct ordinary ones then the final one, all for
 * this height and tip, the final one committing to the block, and every one meeting its proof-of-work target
 * (9× the difficulty for the final one) unless the network skips PoW.
 */
export function checkMiniblocks(core: Core, params: ChainParams, block: Block, difficulty: bigint): void {
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
    const bytes = encodeMiniblock(mb);
    const id = Buffer.from(bytes).toString('hex');
    if (seen.has(id)) throw new BlockRejected(BlockErrorCode.DuplicateMiniblock, `miniblock ${i} is a duplicate`);
    seen.add(id);
    if (params.checkPow) {
      const target = isLast ? difficulty * FINAL_DIFFICULTY_MULTIPLIER : difficulty;
      if (!meetsTarget(core.powHash(bytes), target))
        throw new BlockRejected(
          BlockErrorCode.BadPow,
          `miniblock ${i} does not meet its proof-of-work target (difficulty ${target})`,
        );
    }
  });
  if (!equalBytes(mbs[MINIBLOCKS_PER_BLOCK - 1]!.keyHash, finalKeyHash(core, block))) {
    throw new BlockRejected(BlockErrorCode.FinalKeyHash, 'the final miniblock does not commit to this block');
  }
}
