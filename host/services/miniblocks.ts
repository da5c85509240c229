/**
 * The pool of ordinary miniblocks for the next block (registered by the `mining` plugin as `miniblocks`), as P2P
 * sees it: miniblocks solved by miners anywhere are shared, so that the nine of a block can come from several nodes.
 */
import { UmbraError } from '../../core-native/ts/errors.js';

/** Why a miniblock — from a peer, or submitted by a miner for a job — is refused. */
export const MiniblockErrorCode = {
  Malformed: 'miniblock.malformed',
  /** A final miniblock travels inside its block, never alone. */
  FinalAlone: 'miniblock.final-alone',
  UnregisteredMiner: 'miniblock.unregistered-miner',
  BadPow: 'miniblock.bad-pow',
  UnknownJob: 'miniblock.unknown-job',
  NotOfJob: 'miniblock.not-of-job',
  StaleJob: 'miniblock.stale-job',
  Duplicate: 'miniblock.duplicate',
  PoolFull: 'miniblock.pool-full',
  /** The block a submission completes (or a whole submitted block) was refused by the chain. */
  BlockRejected: 'miniblock.block-rejected',
  /** A submitted block whose parent this node does not know: kept for a while, not in the chain. */
  BlockWaitsForParent: 'miniblock.block-waits-for-parent',
} as const;
export type MiniblockErrorCode = (typeof MiniblockErrorCode)[keyof typeof MiniblockErrorCode];

export class MiniblockRejected extends UmbraError<MiniblockErrorCode> {
  override readonly name = 'MiniblockRejected';
}

export interface MiniblockPoolService {
  /**
   * Offers a 48-byte ordinary miniblock from elsewhere. True when it joined the pool (pass it on); false when it is
   * merely not wanted (duplicate, another tip, pool full). Throws MiniblockRejected when it is invalid (bad proof of
   * work, unknown miner key, malformed): the sender is at fault.
   */
  accept(blob: Uint8Array): boolean;
  /** Called with each ordinary miniblock that joins the pool (submitted here or accepted from a peer). */
  onMiniblock(listener: (blob: Uint8Array) => void): () => void;
}
