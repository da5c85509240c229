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
}
