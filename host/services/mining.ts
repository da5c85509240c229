/**
 * Block templates and submission (registered by the `mining` plugin as `mining`), as the simulator and in-process
 * miners use them. The same object serves P2P as `miniblocks` (host/services/miniblocks.ts).
 */
export interface MiningTemplate {
  id: string;
  /** The 48-byte miniblock to solve. */
  blob: Uint8Array;
  /** The difficulty the blob must meet. */
  difficulty: bigint;
}

export interface MiningSubmission {
  /** An ordinary miniblock was accepted into the pool. */
  mini: boolean;
  /** The submission completed a block that the chain accepted. */
  block_found: boolean;
}

export interface MiningService {
  /** The next job for a miner paying to `minerKey` (33-byte compressed key); MiniblockRejected when it is not registered. */
  template(minerKey: Uint8Array): MiningTemplate;
  /** Submits a solved job's blob; MiniblockRejected says why it is refused. */
  submit(jobId: string, blob: Uint8Array): Promise<MiningSubmission>;
  /** The built-in miner's hashes per second over its last report period (0 when it does not run or has not reported). */
  minerHashRate(): number;
  /** Makes a whole block for `minerKey` without proof of work (simulator network only); returns its id in hex. */
  mineWithoutWork(minerKey: Uint8Array): Promise<string>;
}
