/**
 * Where a transfer item goes: an address of the wallet's network, an integrated address (its arguments go into the
 * receiver's payload), or a name registered with the name service (looked up as the wallet's mode reads the state:
 * proven in the proven modes).
 */
import { AddressError, curvePointCheck, splitAddress } from '../protocol/address.js';
import { NETWORKS } from '../protocol/network.js';
import type { RpcArgument } from '../protocol/rpc-arguments.js';
import { WalletError, WalletErrorCode } from './wallet-error.js';
import type { WalletContext } from './wallet-context.js';

export interface Destination {
  /** The plain address. */
  address: string;
  publicKey: Uint8Array;
  /** An integrated address's arguments (sorted by name), else empty. */
  args: RpcArgument[];
}

export async function resolveDestination(wallet: WalletContext, destination: string): Promise<Destination> {
  const onCurve = curvePointCheck(wallet.core);
  let split;
  try {
    split = splitAddress(destination, undefined, onCurve);
  } catch (error) {
    if (!(error instanceof AddressError)) throw error;
    const owner = await wallet.access.nameOwner(destination);
    if (owner === undefined)
      throw new WalletError(
        WalletErrorCode.UnknownDestination,
        `destination ${JSON.stringify(destination)} is neither an address (${error.message}) nor a registered name`,
      );
    split = splitAddress(owner, wallet.keys.network, onCurve);
  }
  // Testnet and the simulator share their prefix, so the prefix is what must match.
  if (NETWORKS[split.network].addressPrefix !== NETWORKS[wallet.keys.network].addressPrefix) {
    throw new WalletError(
      WalletErrorCode.WrongNetwork,
      `destination ${destination} is a ${split.network} address; this wallet is on ${wallet.keys.network}`,
    );
  }
  return { address: split.address, publicKey: split.publicKey, args: split.args };
}
