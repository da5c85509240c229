/**
 * What the wallet's working parts (the history sync, the transfer sender, destination lookup) share: the crypto core
 * and the network's generators, the wallet's keys (and so its address), its daemon and its balance decoder. They get
 * this and nothing of the WalletService that composes them.
 */
import type { Core } from '../core-native/ts/core.js';
import type { Generators } from '../core-native/ts/curve.js';
import { NETWORKS } from '../protocol/network.js';
import { BalanceDecoder } from './balance-decoder.js';
import type { DaemonClient } from './daemon-client.js';
import type { WalletKeys } from './wallet-keys.js';

export interface WalletContext {
  readonly core: Core;
  readonly generators: Generators;
  readonly keys: WalletKeys;
  readonly daemon: DaemonClient;
  readonly decoder: BalanceDecoder;
}

/** The context of a wallet with `keys` on `daemon`; `balanceTableDir` is where the balance-decoding table is cached. */
export function walletContext(
  core: Core,
  keys: WalletKeys,
  daemon: DaemonClient,
  balanceTableDir: string,
): WalletContext {
  const generators = core.generators(NETWORKS[keys.network].generatorDomain);
  return { core, generators, keys, daemon, decoder: new BalanceDecoder(core, generators.G, balanceTableDir) };
}
