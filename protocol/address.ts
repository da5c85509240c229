/**
 * Addresses (docs/cryptography.md § Keys and addresses): bech32 (BIP-173, original checksum, no length
 * limit) of version byte 0x01 ‖ 33-byte compressed public key ‖ [encoded RPC arguments, integrated addresses only].
 * Prefixes: `umb` mainnet, `umbt` testnet and simulator; `umbi` / `umbti` for integrated addresses; `umbproof` for
 * payment proofs (same shape, the key field holding the blinder).
 */
import { bech32 } from '@scure/base';
import type { Core } from '../core-native/ts/core.js';
import { AddressError, AddressErrorCode } from './address-errors.js';
import { orList, readBech32, type Bech32Kind } from './bech32-text.js';
import { NETWORKS, PAYMENT_PROOF_PREFIX, type NetworkName } from './network.js';
import { decodeRpcArguments, encodeRpcArguments, RpcArgumentError, type RpcArgument } from './rpc-arguments.js';

export const ADDRESS_VERSION = 0x01;
const KEY_BYTES = 33;

export { AddressError, AddressErrorCode } from './address-errors.js';

const NETWORK_LIST = Object.values(NETWORKS) as (typeof NETWORKS)[NetworkName][];
const PLAIN_PREFIXES = new Set(NETWORK_LIST.map((n) => n.addressPrefix));

const ADDRESS_PREFIXES = [
  ...new Set([...NETWORK_LIST.map((n) => n.addressPrefix), ...NETWORK_LIST.map((n) => n.integratedAddressPrefix)]),
];

const ADDRESS_TEXT: Bech32Kind = {
  noun: 'address',
  prefixes: ADDRESS_PREFIXES,
  otherPrefix: (seen) => `unknown address prefix '${seen}' (expected ${orList(ADDRESS_PREFIXES)})`,
  minBytes: 1 + KEY_BYTES,
  exactBytes: (prefix) => (PLAIN_PREFIXES.has(prefix) ? 1 + KEY_BYTES : undefined),
};

const PAYMENT_PROOF_TEXT: Bech32Kind = {
  noun: 'payment proof',
  prefixes: [PAYMENT_PROOF_PREFIX],
  otherPrefix: (seen) => `a payment proof starts with '${PAYMENT_PROOF_PREFIX}1', not '${seen}1'`,
  minBytes: 1 + KEY_BYTES + 1,
  exactBytes: () => undefined,
};

/** The networks of a prefix, for messages: `mainnet`, `testnet or simulator`. */
const networksOf = (addressPrefix: string): string =>
  NETWORK_LIST.filter((n) => n.addressPrefix === addressPrefix)
    .map((n) => n.name)
    .join(' or ');

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
  if (publicKey.length !== KEY_BYTES)
    throw new AddressError(
      AddressErrorCode.BadKeyLength,
      `a public key is ${KEY_BYTES} bytes, got ${publicKey.length}`,
    );
  const params = NETWORKS[network];
  const prefix = payload && payload.length > 0 ? params.integratedAddressPrefix : params.addressPrefix;
  const data = new Uint8Array(1 + KEY_BYTES + (payload?.length ?? 0));
  data[0] = ADDRESS_VERSION;
  data.set(publicKey, 1);
  if (payload) data.set(payload, 1 + KEY_BYTES);
  return bech32.encode(prefix, bech32.toWords(data), false);
}

/**
 * Decodes and checks an address: prefix, characters, checksum, network (that it belongs to `expected`, when given),
 * version and length; an AddressError says what is wrong in words a person can act on. Whether the key is a curve point is checked by `isCurvePoint` when given (the crypto core's strict
 * decompression).
 */
export function decodeAddress(
  address: string,
  expected?: NetworkName,
  isCurvePoint?: (key: Uint8Array) => boolean,
): DecodedAddress {
  const { prefix, data } = readBech32(address, ADDRESS_TEXT);
  const match = NETWORK_LIST.find((n) => n.addressPrefix === prefix || n.integratedAddressPrefix === prefix)!;
  const network = expected && NETWORKS[expected].addressPrefix === match.addressPrefix ? expected : match.name;
  if (expected && NETWORKS[expected].addressPrefix !== match.addressPrefix) {
    throw new AddressError(
      AddressErrorCode.WrongNetwork,
      `address is for ${networksOf(match.addressPrefix)}, not ${expected}`,
    );
  }
  if (data.length < 1 + KEY_BYTES)
    throw new AddressError(
      AddressErrorCode.TooShort,
      `address is too short: ${data.length} bytes of data, at least ${1 + KEY_BYTES} expected`,
    );
  if (data[0] !== ADDRESS_VERSION)
    throw new AddressError(AddressErrorCode.BadData, `unsupported address version ${data[0]}`);
  const integrated = prefix === match.integratedAddressPrefix;
  const payload = data.slice(1 + KEY_BYTES);
  if (!integrated && payload.length > 0)
    throw new AddressError(
      AddressErrorCode.TooLong,
      `a plain address holds exactly ${KEY_BYTES} key bytes, this one has ${payload.length} more`,
    );
  if (integrated && payload.length === 0)
    throw new AddressError(AddressErrorCode.BadIntegratedPayload, 'an integrated address must carry arguments');
  const publicKey = data.slice(1, 1 + KEY_BYTES);
  if (isCurvePoint && !isCurvePoint(publicKey))
    throw new AddressError(AddressErrorCode.NotACurvePoint, 'address key is not a point on the curve');
  return { network, publicKey, integrated, payload };
}

/** The strict curve-point check for `decodeAddress`, from the crypto core's decompression. */
export function curvePointCheck(core: Core): (key: Uint8Array) => boolean {
  return (key) => {
    try {
      core.g1Decompress(key);
      return true;
    } catch {
      return false;
    }
  };
}

/** An integrated address carrying `args` (at least one). */
export function encodeIntegratedAddress(
  network: NetworkName,
  publicKey: Uint8Array,
  args: readonly RpcArgument[],
): string {
  if (args.length === 0)
    throw new AddressError(AddressErrorCode.BadIntegratedPayload, 'an integrated address must carry arguments');
  return encodeAddress(network, publicKey, encodeRpcArguments(args));
}

export interface SplitAddress {
  network: NetworkName;
  publicKey: Uint8Array;
  /** The plain address of the same key. */
  address: string;
  integrated: boolean;
  /** The arguments of an integrated address, sorted by name (empty for a plain address). */
  args: RpcArgument[];
}

/** Decodes a plain or integrated address, including its arguments. */
export function splitAddress(
  address: string,
  expected?: NetworkName,
  isCurvePoint?: (key: Uint8Array) => boolean,
): SplitAddress {
  const decoded = decodeAddress(address, expected, isCurvePoint);
  let args: RpcArgument[] = [];
  if (decoded.integrated) {
    try {
      args = decodeRpcArguments(decoded.payload);
    } catch (error) {
      if (error instanceof RpcArgumentError)
        throw new AddressError(
          AddressErrorCode.BadIntegratedPayload,
          `integrated address arguments: ${error.message}`,
          {
            cause: error,
          },
        );
      throw error;
    }
  }
  return {
    network: decoded.network,
    publicKey: decoded.publicKey,
    address: encodeAddress(decoded.network, decoded.publicKey),
    integrated: decoded.integrated,
    args,
  };
}

/** A payment proof (docs/cryptography.md § Payloads): the blinder r·Y_k in the key field and `{HH: shared, VU: amount}`. */
export function encodePaymentProof(blinder: Uint8Array, shared: Uint8Array, amount: bigint): string {
  if (blinder.length !== KEY_BYTES)
    throw new AddressError(AddressErrorCode.BadKeyLength, `a blinder is ${KEY_BYTES} bytes, got ${blinder.length}`);
  if (shared.length !== 32)
    throw new AddressError(AddressErrorCode.BadKeyLength, `a shared secret is 32 bytes, got ${shared.length}`);
  const args = encodeRpcArguments([
    { name: 'H', datatype: 'H', value: Buffer.from(shared).toString('hex') },
    { name: 'V', datatype: 'U', value: amount },
  ]);
  const data = new Uint8Array(1 + KEY_BYTES + args.length);
  data[0] = ADDRESS_VERSION;
  data.set(blinder, 1);
  data.set(args, 1 + KEY_BYTES);
  return bech32.encode(PAYMENT_PROOF_PREFIX, bech32.toWords(data), false);
}

export interface PaymentProof {
  blinder: Uint8Array;
  shared: Uint8Array;
  amount: bigint;
}

export function decodePaymentProof(proof: string): PaymentProof {
  const { data } = readBech32(proof, PAYMENT_PROOF_TEXT);
  if (data.length <= 1 + KEY_BYTES || data[0] !== ADDRESS_VERSION)
    throw new AddressError(AddressErrorCode.BadPaymentProof, 'payment proof has a bad version or length');
  let args: RpcArgument[];
  try {
    args = decodeRpcArguments(data.slice(1 + KEY_BYTES));
  } catch (error) {
    throw new AddressError(AddressErrorCode.BadPaymentProof, `payment proof arguments: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const shared = args.find((a) => a.name === 'H' && a.datatype === 'H');
  const amount = args.find((a) => a.name === 'V' && a.datatype === 'U');
  if (!shared || !amount || args.length !== 2)
    throw new AddressError(AddressErrorCode.BadPaymentProof, 'a payment proof carries exactly H (hash) and V (amount)');
  return {
    blinder: data.slice(1, 1 + KEY_BYTES),
    shared: Uint8Array.from(Buffer.from(shared.value as string, 'hex')),
    amount: amount.value as bigint,
  };
}

/**
 * What the contract VM and the RPC layer need from addresses on one network: validation (plain or integrated, this
 * network, key on the curve), the raw 33-byte key of an address, and the plain address of a raw key.
 */
export interface AddressCodec {
  readonly network: NetworkName;
  isValid(address: string): boolean;
  /** The 33-byte compressed key; throws an AddressError naming the problem. */
  toRaw(address: string): Uint8Array;
  /** The plain address of a 33-byte key; throws an AddressError when it is not a curve point. */
  fromRaw(raw: Uint8Array): string;
}

export function addressCodec(network: NetworkName, core: Core): AddressCodec {
  const onCurve = curvePointCheck(core);
  const toRaw = (address: string): Uint8Array => decodeAddress(address, network, onCurve).publicKey;
  return {
    network,
    isValid(address) {
      if (typeof address !== 'string') return false;
      try {
        splitAddress(address, network, onCurve);
        return true;
      } catch {
        return false;
      }
    },
    toRaw,
    fromRaw(raw) {
      if (!(raw instanceof Uint8Array) || raw.length !== KEY_BYTES)
        throw new AddressError(
          AddressErrorCode.BadKeyLength,
          `a raw address is ${KEY_BYTES} bytes, got ${raw instanceof Uint8Array ? raw.length : typeof raw}`,
        );
      if (!onCurve(raw))
        throw new AddressError(AddressErrorCode.NotACurvePoint, 'raw address is not a point on the curve');
      return encodeAddress(network, raw);
    },
  };
}
