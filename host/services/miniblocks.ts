/**
 * The pool of ordinary miniblocks for the next block (registered by the `mining` plugin as `miniblocks`), as P2P
 * sees it: miniblocks solved by miners anywhere are shared, so that the nine of a block can come from several nodes.
 */
export class MiniblockRejected extends Error {
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
