/**
 * The wallet's address methods: GetAddress, MakeIntegratedAddress (an address carrying `payload_rpc` arguments, e.g.
 * a destination port) and SplitIntegratedAddress (back to the plain address and its arguments, sorted by name).
 * Addresses of any network are accepted and keep their network, as the reference does; keys must be curve points.
 * `U` values beyond 2^53 are answered as exact JSON numbers.
 */
import type { Core } from '../../../core-native/ts/core.js';
import {
  AddressError,
  curvePointCheck,
  decodeAddress,
  encodeAddress,
  encodeIntegratedAddress,
  splitAddress,
} from '../../../protocol/address.js';
import { rpcArgumentToExactJson } from '../../../protocol/rpc-arguments.js';
import { InvalidParamsError } from '../../../host/rpc/errors.js';
import { noParams, objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import type { WalletService } from '../../../wallet/wallet-service.js';

/** Runs an address parse; an AddressError becomes -32602 naming the field. */
function parsed<T>(field: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof AddressError) throw new InvalidParamsError(`invalid params: '${field}': ${error.message}`);
    throw error;
  }
}

export function addressMethods(wallet: WalletService, core: Core): RpcMethod[] {
  const onCurve = curvePointCheck(core);

  return [
    defineMethod({ name: 'GetAddress', params: noParams, handler: () => ({ address: wallet.address }) }),
    defineMethod({
      name: 'MakeIntegratedAddress',
      aliases: ['make_integrated_address'],
      // An empty or absent `address` means the wallet's own.
      params: objectParams(p.object({ address: p.optional(p.string(), ''), payload_rpc: p.rpcArguments() })),
      handler: ({ address, payload_rpc }) => {
        const base =
          address === ''
            ? { ...wallet.keys, integrated: false }
            : parsed('address', () => decodeAddress(address, undefined, onCurve));
        if (base.integrated)
          throw new InvalidParamsError(`invalid params: 'address' must be a plain address, not an integrated one`);
        // Without arguments there is nothing to integrate: the plain address is the answer (as in the reference).
        const integrated =
          payload_rpc.length === 0
            ? encodeAddress(base.network, base.publicKey)
            : encodeIntegratedAddress(base.network, base.publicKey, payload_rpc);
        return { integrated_address: integrated, payload_rpc: payload_rpc.map(rpcArgumentToExactJson) };
      },
    }),
    defineMethod({
      name: 'SplitIntegratedAddress',
      aliases: ['split_integrated_address'],
      params: objectParams(p.object({ integrated_address: p.string() })),
      handler: ({ integrated_address }) => {
        const split = parsed('integrated_address', () => splitAddress(integrated_address, undefined, onCurve));
        if (!split.integrated)
          throw new InvalidParamsError(
            `invalid params: 'integrated_address' is a plain address, not an integrated one`,
          );
        return { address: split.address, payload_rpc: split.args.map(rpcArgumentToExactJson) };
      },
    }),
  ];
}
