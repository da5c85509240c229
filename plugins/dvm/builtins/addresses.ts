/**
 * Addresses and payments: IS_ADDRESS_VALID, ADDRESS_RAW, ADDRESS_STRING, SEND_COIN_TO_ADDRESS,
 * SEND_ASSET_TO_ADDRESS. Contracts compare accounts in raw form (33 bytes, as SIGNER() gives). Where an address is
 * expected, both forms are accepted: the raw key, or the text address of this network (plain or integrated).
 * The key must be a valid compressed curve point (strict: x < p, flag 0 or 1). ADDRESS_STRING gives the address
 * on this node's network (the reference always gives a mainnet address).
 */
import { stringBytes, byteString } from '../../../protocol/contract-values.js';
import { ContractPanic, type ExecutionState } from '../execution-state.js';
import { assetArg, fixed, uintArg, type Argument, type Builtin } from './builtin.js';

const KEY_BYTES = 33;
const ZERO_ASSET = '\0'.repeat(32);

/** The raw 33-byte key an argument denotes, or undefined when it is not an address. */
export function rawKeyOf(state: ExecutionState, value: Argument): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.length === KEY_BYTES) {
    try {
      state.env.core.g1Decompress(stringBytes(value));
      return value;
    } catch {
      // not a key: it may still be a 33-character text, handled below
    }
  }
  if (!/^[a-z0-9]+1[a-z0-9]+$/.test(value)) return undefined;
  try {
    return byteString(state.env.addresses.toRaw(value));
  } catch {
    return undefined;
  }
}

function send(state: ExecutionState, builtin: string, args: readonly Argument[], asset: string | undefined): bigint {
  const to = rawKeyOf(state, args[0]);
  if (to === undefined)
    throw new ContractPanic(
      `${builtin}: argument 1 is not an address (a raw 33-byte key or an address of this network)`,
    );
  const amount = uintArg(builtin, args, 1);
  if (amount === 0n) return 0n;
  state.send(to, amount, asset ?? assetArg(builtin, args, 2), builtin);
  return amount;
}

export const ADDRESS_BUILTINS: readonly Builtin[] = [
  {
    name: 'IS_ADDRESS_VALID',
    gas: 50000,
    ...fixed(1),
    call: (state, args) => (rawKeyOf(state, args[0]) === undefined ? 0n : 1n),
  },
  { name: 'ADDRESS_RAW', gas: 60000, ...fixed(1), call: (state, args) => rawKeyOf(state, args[0]) ?? '' },
  {
    name: 'ADDRESS_STRING',
    gas: 50000,
    ...fixed(1),
    call(state, args) {
      const raw = rawKeyOf(state, args[0]);
      return raw === undefined ? '' : state.env.addresses.fromRaw(stringBytes(raw));
    },
  },
  {
    name: 'SEND_COIN_TO_ADDRESS',
    gas: 70000,
    ...fixed(2),
    call: (state, args) => send(state, 'SEND_COIN_TO_ADDRESS', args, ZERO_ASSET),
  },
  {
    name: 'SEND_ASSET_TO_ADDRESS',
    gas: 90000,
    ...fixed(3),
    call: (state, args) => send(state, 'SEND_ASSET_TO_ADDRESS', args, undefined),
  },
];
