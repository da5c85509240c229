/**
 * The premine key of each network. On testnet and the simulator its secret is public (derived from a documented
 * seed) so that the simulator can hold it and fund its wallets; mainnet's premine is zero.
 */
import type { Core } from '../core-native/ts/core.js';
import { NETWORKS, type NetworkName } from './network.js';

/** The premine secret key of a network: Keccak-256 of `UMBRA premine <network>`, read big-endian. */
export function premineSecret(core: Core, network: NetworkName): Uint8Array {
  return core.keccak256(new TextEncoder().encode(`UMBRA premine ${network}`));
}

export function premineKey(core: Core, network: NetworkName): Uint8Array {
  const { G } = core.generators(NETWORKS[network].generatorDomain);
  return core.g1Compress(core.g1MulSecret(G, premineSecret(core, network)));
}
