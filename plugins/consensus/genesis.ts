/**
 * The genesis block of each network: a PREMINE transaction crediting the premine key, no tips, no miniblocks,
 * timestamp 0. On testnet and the simulator the premine key's secret is public (derived from a documented seed) so
 * that the simulator can hold it and fund its wallets; mainnet's premine is zero.
 */
import type { Core } from '../../core-native/ts/core.js';
import type { Block } from '../../host/protocol/block.js';
import { CHAIN_PARAMS } from '../../host/protocol/chain-params.js';
import { NETWORKS, type NetworkName } from '../../host/protocol/network.js';
import { premineTx } from '../../host/protocol/transaction.js';
import { BLOCK_MAJOR_VERSION, BLOCK_MINOR_VERSION } from './block-checks.js';

/** The premine secret key of a network: Keccak-256 of `UMBRA premine <network>`, read big-endian. */
export function premineSecret(core: Core, network: NetworkName): Uint8Array {
  return core.keccak256(new TextEncoder().encode(`UMBRA premine ${network}`));
}

export function premineKey(core: Core, network: NetworkName): Uint8Array {
  const { G } = core.generators(NETWORKS[network].generatorDomain);
  return core.g1Compress(core.g1MulSecret(G, premineSecret(core, network)));
}

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
