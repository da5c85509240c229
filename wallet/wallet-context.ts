/**
 * What the wallet's working parts (the history sync, the transfer sender, destination lookup) share: the crypto core
 * and the network's generators, the wallet's keys (and so its address), its daemon, how it reads the chain (its
 * mode: chain-access/) and its balance decoder. They get this and nothing of the WalletService that composes them.
 */
import type { Core } from '../core-native/ts/core.js';
import type { Generators } from '../core-native/ts/curve.js';
import { NETWORKS } from '../protocol/network.js';
import { BalanceDecoder } from './balance-decoder.js';
import type { ChainAccess } from './chain-access/chain-access.js';
import type { DaemonClient } from './daemon-client.js';
import type { WalletKeys } from './wallet-keys.js';

export interface WalletContext {
  readonly core: Core;
  readonly generators: Generators;
  readonly keys: WalletKeys;
  readonly daemon: DaemonClient;
  /**
   * The daemon that sees the wallet's own transactions: their submission and everything asked while building or
   * following one (decoys, ring balances, trials, confirmations). The sync's daemon unless told otherwise, so that a
   * daemon serving a private sync need not also learn which transactions are the wallet's.
   */
  readonly sendDaemon: DaemonClient;
  /** Every read of the chain's state and blocks goes through this, never the daemon directly. */
  readonly access: ChainAccess;
  readonly decoder: BalanceDecoder;
}

/**
 * The context of a wallet with `keys` on `daemon`, reading the chain through `access` and sending through `sendDaemon`;
 * `balanceTableDir` is where the balance-decoding table is cached.
 */
export function walletContext(
  core: Core,
  keys: WalletKeys,
  daemon: DaemonClient,
  access: ChainAccess,
  balanceTableDir: string,
  sendDaemon: DaemonClient = daemon,
): WalletContext {
  const generators = core.generators(NETWORKS[keys.network].generatorDomain);
  const decoder = new BalanceDecoder(core, generators.G, balanceTableDir);
  return { core, generators, keys, daemon, sendDaemon, access, decoder };
}
