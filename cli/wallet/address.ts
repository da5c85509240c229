/** `wallet address`: the wallet's address and network. */
import type { WalletSession } from './session.js';

export interface AddressResult {
  address: string;
  network: string;
}

export function address(session: WalletSession): AddressResult {
  return { address: session.wallet.address, network: session.wallet.keys.network };
}

export const addressText = (result: AddressResult): string => `${result.address}\n`;
