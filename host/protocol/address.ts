/**
 * Addresses (DESIGN §3 "Curve and keys"; reference-protocol §1.5): bech32 (BIP-173, original checksum, no length
 * limit) of version byte 0x01 ‖ 33-byte compressed public key ‖ [encoded RPC arguments, integrated addresses only].
 * Prefixes: `umb` mainnet, `umbt` testnet and simulator; `umbi` / `umbti` for integrated addresses.
 */
import { bech32 } from '@scure/base';
import { NETWORKS, type NetworkName } from './network.js';

export const ADDRESS_VERSION = 0x01;
const KEY_BYTES = 33;

export class AddressError extends Error {
  override readonly name = 'AddressError';
}

export interface DecodedAddress {
  /** Networks whose prefix the address carries (testnet and simulator share theirs). */
  network: NetworkName;
  publicKey: Uint8Array;
  integrated: boolean;
  /** The encoded RPC arguments of an integrated address (empty otherwise). */
  payload: Uint8Array;
}

/** Encodes a 33-byte compressed key (and, for an integrated address, its encoded arguments) for a network. */
export function encodeAddress(network: NetworkName, publicKey: Uint8Array, payload?: Uint8Array): string {
  if (publicKey.length !== KEY_BYTES) throw new AddressError(`a public key is ${KEY_BYTES} bytes, got ${publicKey.length}`);
  const params = NETWORKS[network];
  const prefix = payload && payload.length > 0 ? params.integratedAddressPrefix : params.addressPrefix;
  const data = new Uint8Array(1 + KEY_BYTES + (payload?.length ?? 0));
  data[0] = ADDRESS_VERSION;
  data.set(publicKey, 1);
  if (payload) data.set(payload, 1 + KEY_BYTES);
  return bech32.encode(prefix, bech32.toWords(data), false);
}

/**
 * Decodes and checks an address: checksum, prefix (and that it belongs to `expected`, when given), version and
 * length. Whether the key is a curve point is checked by `isCurvePoint` when given (the crypto core's strict
 * decompression).
 */
export function decodeAddress(address: string, expected?: NetworkName, isCurvePoint?: (key: Uint8Array) => boolean): DecodedAddress {
  let prefix: string;
  let words: number[];
  try {
    ({ prefix, words } = bech32.decode(address as `${string}1${string}`, false));
  } catch (error) {
    throw new AddressError(`not a valid address: ${(error as Error).message}`);
  }
  const match = (Object.values(NETWORKS) as (typeof NETWORKS)[NetworkName][]).find((n) => n.addressPrefix === prefix || n.integratedAddressPrefix === prefix);
  if (!match) throw new AddressError(`unknown address prefix '${prefix}' (expected umb, umbt, umbi or umbti)`);
  const network = expected && NETWORKS[expected].addressPrefix === match.addressPrefix ? expected : match.name;
  if (expected && NETWORKS[expected].addressPrefix !== match.addressPrefix) {
    throw new AddressError(`address is for ${match.testnet ? 'a test network' : 'mainnet'}, not ${expected}`);
  }
  let data: Uint8Array;
  try {
    data = bech32.fromWords(words);
  } catch (error) {
    throw new AddressError(`not a valid address: ${(error as Error).message}`);
  }
  if (data.length < 1 + KEY_BYTES) throw new AddressError(`address is too short: ${data.length} bytes of data, at least ${1 + KEY_BYTES} expected`);
  if (data[0] !== ADDRESS_VERSION) throw new AddressError(`unsupported address version ${data[0]}`);
  const integrated = prefix === match.integratedAddressPrefix;
  const payload = data.slice(1 + KEY_BYTES);
  if (!integrated && payload.length > 0) throw new AddressError(`a plain address holds exactly ${KEY_BYTES} key bytes, this one has ${payload.length} more`);
  if (integrated && payload.length === 0) throw new AddressError('an integrated address must carry arguments');
  const publicKey = data.slice(1, 1 + KEY_BYTES);
  if (isCurvePoint && !isCurvePoint(publicKey)) throw new AddressError('address key is not a point on the curve');
  return { network, publicKey, integrated, payload };
}
