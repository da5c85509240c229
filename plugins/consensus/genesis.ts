/**
 * The genesis block of each network: a PREMINE transaction crediting the premine key (protocol/premine.ts), no
 * tips, no miniblocks, timestamp 0.
 */
import type { Core } from '../../core-native/ts/core.js';
import type { Block } from '../../protocol/block.js';
import { CHAIN_PARAMS } from '../../protocol/chain-params.js';
import type { NetworkName } from '../../protocol/network.js';
import { premineKey } from '../../protocol/premine.js';
import { premineTx } from '../../protocol/transaction.js';
import { BLOCK_MAJOR_VERSION, BLOCK_MINOR_VERSION } from '../../protocol/chain/block-checks.js';

/** The genesis block without its state root (filled in once the genesis state is computed). */
export function genesisTemplate(core: Core, network: NetworkName): Block {
  return {
    majorVersion: BLOCK_MAJOR_VERSION,
    minorVersion: BLOCK_MINOR_VERSION,
    timestamp: 0n,
    height: 0n,
    minerTx: premineTx(premineKey(core, network), CHAIN_PARAMS[network].premineAmount),
    stateRoot: new Uint8Array(32),
    tips: [],
    miniblocks: [],
    txHashes: [],
  };
}
