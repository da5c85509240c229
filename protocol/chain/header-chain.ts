/**
 * Fast sync's header check: the blocks of a chain from genesis, one by one, against the rules that need no state —
 * tip and height, timestamps, version, the difficulty each block must be mined at, every miniblock's proof of work —
 * adding up the cumulative work. Transactions and state roots are not checked here: the state root of the block the
 * snapshot is taken at is what the state's chunks are proven against.
 */
import type { Core } from '../../core-native/ts/core.js';
import { blockReward, type ChainParams } from '../../protocol/chain-params.js';
import { decodeBlock, type Block } from '../../protocol/block.js';
import { equalBytes, toHex } from '../../protocol/bytes.js';
import type { BlockMeta } from '../../host/services/chain.js';
import type { HeaderCheck } from '../../host/services/snapshots.js';
import { checkAgainstParent, checkMiniblocks } from './block-checks.js';
import { BlockErrorCode, BlockRejected } from './block-errors.js';
import { nextDifficulty } from './difficulty.js';

export class HeaderChain implements HeaderCheck {
  private parentTimestamp: bigint | null = null;

  constructor(
    private readonly core: Core,
    private readonly params: ChainParams,
    private tip: BlockMeta,
    private readonly now: () => bigint,
  ) {}

  next(bytes: Uint8Array): BlockMeta {
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
      parentTimestamp: this.parentTimestamp,
    });
    checkMiniblocks(this.core, this.params, block, difficulty);
    const meta: BlockMeta = {
      id: this.core.sha3_256(bytes),
      height: block.height,
      timestamp: block.timestamp,
      difficulty,
      cumulativeWork: this.tip.cumulativeWork + difficulty,
      stateVersion: -1n,
      stateRoot: block.stateRoot,
      size: bytes.length,
      txCount: block.txHashes.length,
      reward: blockReward(block.height),
    };
    this.parentTimestamp = this.tip.timestamp;
    this.tip = meta;
    return meta;
  }
}
