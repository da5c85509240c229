/**
 * A block header as the daemon's RPC answers it (docs/rpc.md § Block header): the consensus plugin builds it, and
 * the explorer (which may not import that plugin) and other clients read it.
 */
export interface BlockHeaderJson {
  depth: number;
  difficulty: string;
  hash: string;
  height: number;
  /** -1 for a side block. */
  topoheight: number;
  major_version: number;
  minor_version: number;
  nonce: number;
  orphan_status: boolean;
  syncblock: boolean;
  sideblock: boolean;
  txcount: number;
  /** One entry per miniblock: the miner's key hash (hex) or, for the final one, the integrator address. */
  miners: string[] | null;
  reward: number;
  tips: string[] | null;
  timestamp: number;
}
