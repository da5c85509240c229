/** The miners connected to the getwork server, as the explorer and /metrics show them (the `mining` plugin's). */
export interface ConnectedMiner {
  address: string;
  /** When it connected, ms since the epoch. */
  since: number;
  jobs: number;
  accepted: number;
  rejected: number;
  blocks: number;
  /** Its part of the ordinary miniblocks of the main chain's last SHARE_BLOCKS blocks, 0..1. */
  share: number;
}

/** How many of the last blocks `ConnectedMiner.share` counts. */
export const SHARE_BLOCKS = 100;

/** The `mining` plugin's `miners` service: its getwork server's connections (none when it serves no getwork). */
export interface MinersService {
  connected(): ConnectedMiner[];
}
