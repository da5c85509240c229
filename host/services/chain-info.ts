import type { PeerCounts } from './p2p.js';

/**
 * Figures other plugins contribute to NODE.GetInfo (registered by the `consensus` plugin as `chainInfo`; the mempool
 * and p2p plugins fill in their parts when they register). Absent ones read 0.
 */
export interface InfoContributions {
  txPoolSize?(): number;
  peers?(): PeerCounts;
  /** The highest chain height peers report. */
  peerHeight?(): number;
  /** The mining plugin's figures (getwork miners, submissions, the network's hash rate). */
  mining?(): MiningFigures;
  /** The running fast sync's phase and progress (the p2p plugin), if one runs. */
  fastSync?(): FastSyncFigures | undefined;
}

/** NODE.GetInfo's `fast_sync`: what a running fast sync does (docs/operations.md § Sync modes). */
export interface FastSyncFigures {
  phase: 'headers' | 'state' | 'blocks';
  /** Height of the block whose state is fetched (the peer's stable height). */
  snapshot_height: number;
  /** Headers checked, states fetched, or blocks stored, out of `total`. */
  done: number;
  total: number;
  /** State leaves fetched so far. */
  leaves: number;
}

/** NODE.GetInfo's mining fields, named as the reference node names them (docs/rpc.md § NODE.GetInfo). */
export interface MiningFigures {
  connected_miners: number;
  miniblocks_in_memory: number;
  blocks_count: number;
  miniblocks_accepted_count: number;
  miniblocks_rejected_count: number;
  /** Miniblocks accepted per hour since the daemon started. */
  mining_velocity: number;
  /** The network's hash rate, hashes/s, from the work of the main chain's blocks over the last hour, day, week. */
  hashrate_1hr: number;
  hashrate_1d: number;
  hashrate_7d: number;
}
