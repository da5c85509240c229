/**
 * A signed message for a web app (docs/dapps.md § signMessage): a Schnorr signature by the wallet's key over the
 * message's UTF-8 bytes (docs/cryptography.md § Schnorr signatures), so that the app can check that the person
 * holding the address agreed to the text.
 */
import type { Core } from '../../../core-native/ts/core.js';
import { schnorrSign } from '../../../core-native/ts/schnorr.js';
import { toHex } from '../../../protocol/bytes.js';
import { NETWORKS } from '../../../protocol/network.js';
import type { WalletKeys } from '../../../wallet/wallet-keys.js';

export interface SignedMessage {
  address: string;
  message: string;
  /** c ‖ s, 64 bytes as 128 hex digits. */
  signature: string;
}

export function signMessage(core: Core, keys: WalletKeys, message: string): SignedMessage {
  const { G } = core.generators(NETWORKS[keys.network].generatorDomain);
  const { c, s } = schnorrSign(core, G, keys.secretKey, new TextEncoder().encode(message));
  return { address: keys.address, message, signature: toHex(c) + toHex(s) };
}
