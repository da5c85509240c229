/**
 * The blocks a light client may trust without checking the chain below them: each network's genesis block, and the
 * checkpoints a release ships (a block of the main chain, below any reorganisation, named by height and id). A
 * release adds its entries after genesis, in height order; a wallet starts from the last one unless told otherwise.
 */
import { fromHex } from '../bytes.js';
import type { NetworkName } from '../network.js';

export interface Checkpoint {
  height: bigint;
  /** The block id: SHA3-256 of the serialised block. */
  id: Uint8Array;
}

const block = (height: bigint, id: string): Checkpoint => ({ height, id: fromHex(id, 32, 'checkpoint id') });

export const CHECKPOINTS: Readonly<Record<NetworkName, readonly Checkpoint[]>> = {
  mainnet: [block(0n, 'a1d933e63071c6f5f3f8026ec9a1f41782b0d63e5deae78f5cc487b187a38f65')],
  testnet: [block(0n, 'e0e6e28014746307fd8764dad92bef9c41aa32c6e1da17a0e9731eefe1da9dd9')],
  simulator: [block(0n, 'f1d28384a0dd67a1671f6c91b9f9a285723329f8c915321bb795658bb5edea45')],
};

/** The network's genesis block. */
export const genesisCheckpoint = (network: NetworkName): Checkpoint => CHECKPOINTS[network][0]!;

/** The highest checkpoint shipped for the network (its genesis while none is). */
export const latestCheckpoint = (network: NetworkName): Checkpoint => CHECKPOINTS[network].at(-1)!;
