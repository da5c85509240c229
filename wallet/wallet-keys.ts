/**
 * A wallet's identity: its network and secret key (all the wallet file needs to hold) and what follows from them,
 * the public key, the address and the 24 seed words. `keysFromContents` reads the file's contents back, checking them.
 */
import type { Core } from '../core-native/ts/core.js';
import { encodeAddress } from '../protocol/address.js';
import { toHex } from '../protocol/bytes.js';
import { publicKeyOf, secretKeyFromHex } from '../protocol/keys.js';
import { secretKeyToMnemonic } from '../protocol/mnemonic.js';
import { isNetworkName, NETWORKS, type NetworkName } from '../protocol/network.js';
import { WalletFileError, WalletFileErrorCode } from './wallet-file.js';

export interface WalletKeys {
  readonly network: NetworkName;
  /** 32 bytes, big-endian (the key the mnemonic encodes). */
  readonly secretKey: Uint8Array;
  /** 33-byte compressed public key. */
  readonly publicKey: Uint8Array;
  readonly address: string;
  readonly mnemonic: string;
}

/** What the wallet file holds about the keys (later versions add their sync state beside these fields). */
export interface WalletKeyContents {
  network: NetworkName;
  secret_key: string;
}

export function walletKeys(core: Core, network: NetworkName, secretKey: Uint8Array): WalletKeys {
  const publicKey = publicKeyOf(core, secretKey, NETWORKS[network].generatorDomain);
  return {
    network,
    secretKey,
    publicKey,
    address: encodeAddress(network, publicKey),
    mnemonic: secretKeyToMnemonic(secretKey),
  };
}

export function keyContents(keys: WalletKeys): WalletKeyContents {
  return { network: keys.network, secret_key: toHex(keys.secretKey) };
}

/** The keys of decrypted wallet-file contents; throws with a clear message when they are not a wallet's. */
export function keysFromContents(core: Core, contents: unknown): WalletKeys {
  const record = (typeof contents === 'object' && contents !== null ? contents : {}) as Partial<
    Record<keyof WalletKeyContents, unknown>
  >;
  if (!isNetworkName(record.network))
    throw new WalletFileError(
      WalletFileErrorCode.NotAWallet,
      `the wallet file names no known network (got ${JSON.stringify(record.network)})`,
    );
  if (typeof record.secret_key !== 'string')
    throw new WalletFileError(WalletFileErrorCode.NotAWallet, 'the wallet file holds no secret key');
  return walletKeys(core, record.network, secretKeyFromHex(record.secret_key));
}
