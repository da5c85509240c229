/**
 * What a contract call sees of its block (docs/contracts.md § When a call commits): in a block, that block; in a trial
 * run (NODE.GetGasEstimate), the next block on the top as far as it is known before it is mined — so that a trial
 * sees what the mined call will see wherever that can be known, and never a value the mined call cannot see.
 */
import { randomBytes } from 'node:crypto';
import type { Core } from '../../core-native/ts/core.js';
import { encodeBlock, nextBlockTimestamp, type Block } from '../../protocol/block.js';
import { MINIBLOCKS_PER_BLOCK } from '../../protocol/miniblock.js';
import type { BlockMeta } from '../../host/services/chain.js';

/** BLOCK_HEIGHT(), BLOCK_TIMESTAMP() and BLID() of a call. */
export interface CallBlock {
  readonly blid: Uint8Array;
  readonly height: bigint;
  readonly timestampMs: bigint;
}

/**
 * A call in `block`. The block is not finished while its transactions run (its id covers the state root), so contracts
 * get as BLID the SHA3-256 of the block with its nine ordinary miniblocks and a zero state root — fixed by the mined
 * miniblocks, unknown to a sender before they are mined.
 */
export function minedCallBlock(core: Core, block: Block): CallBlock {
  const blid = core.sha3_256(encodeBlock({ ...block, stateRoot: new Uint8Array(32) }, MINIBLOCKS_PER_BLOCK - 1));
  return { blid, height: block.height, timestampMs: block.timestamp };
}

/**
 * A call in the next block on `top`, made at `nowMs` (the node's clock): its height, the timestamp a block template
 * made now carries, and — since no one knows the BLID before the miniblocks are mined — a random one, as unpredictable
 * to the contract as the mined call's (the parent's id would be a value the mined call never sees).
 */
export function nextCallBlock(top: BlockMeta, nowMs: bigint): CallBlock {
  return { blid: randomBytes(32), height: top.height + 1n, timestampMs: nextBlockTimestamp(nowMs, top.timestamp) };
}
