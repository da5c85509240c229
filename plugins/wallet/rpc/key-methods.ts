/** QueryKey: exports the wallet's 24 seed words (`key_type` `mnemonic`, the only key type, docs/rpc.md § QueryKey). */
import { InvalidParamsError } from '../../../host/rpc/errors.js';
import { objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import type { WalletService } from '../../../wallet/wallet-service.js';

export function keyMethods(wallet: WalletService): RpcMethod[] {
  return [
    defineMethod({
      name: 'QueryKey',
      aliases: ['query_key'],
      params: objectParams(p.object({ key_type: p.string() })),
      handler: ({ key_type }) => {
        if (key_type.toLowerCase() !== 'mnemonic')
          throw new InvalidParamsError(`invalid params: 'key_type' must be mnemonic, got ${JSON.stringify(key_type)}`);
        return { key: wallet.keys.mnemonic };
      },
    }),
  ];
}
