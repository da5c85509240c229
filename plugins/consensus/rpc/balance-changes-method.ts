/**
 * NODE.GetBalanceChanges (an Umbra extension): the topoheights in a range after which one account's encrypted
 * balance of an asset differs from the one before, with the balance there — what a wallet's history sync would
 * otherwise find with many NODE.GetEncryptedBalance calls. docs/rpc.md § NODE.GetBalanceChanges.
 *
 * The node bisects on equality of the encoded balance (every change re-encrypts it), left half first, so changes come
 * in chain order and an answer capped at its limit (MAX_BALANCE_CHANGES at most) covers the range up to its last change.
 */
import { fromHex, toHex } from '../../../protocol/bytes.js';
import { encodeNonceBalance } from '../../../protocol/nonce-balance.js';
import { InvalidParamsError } from '../../../host/rpc/errors.js';
import { objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import type { Chain } from '../chain.js';

export interface BalanceChangesRpcDeps {
  chain: Chain;
  /** An address of this network as its key; throws with a message naming the problem. */
  keyOf(address: string): Uint8Array;
}

/** How many changes one answer holds at most. */
export const MAX_BALANCE_CHANGES = 1000;

interface BalanceAt {
  topoheight: number;
  /** Hex of the encoded balance; '' where the account holds no balance of the asset. */
  data: string;
}

export function balanceChangesMethod(deps: BalanceChangesRpcDeps): RpcMethod {
  return defineMethod({
    name: 'NODE.GetBalanceChanges',
    aliases: ['getbalancechanges'],
    params: objectParams(
      p.object({
        address: p.string(),
        scid: p.optional(p.hash(), undefined),
        from_topoheight: p.uint(),
        to_topoheight: p.optional(p.int(), -1),
        limit: p.optional(p.uint(), MAX_BALANCE_CHANGES),
      }),
    ),
    handler: (params) => {
      const { chain } = deps;
      let key: Uint8Array;
      try {
        key = deps.keyOf(params.address);
      } catch (error) {
        throw new InvalidParamsError(`invalid params: 'address': ${(error as Error).message}`);
      }
      const top = Number(chain.top.height);
      const to = params.to_topoheight === -1 ? top : params.to_topoheight;
      if (to < 0 || to > top)
        throw new InvalidParamsError(
          `invalid params: 'to_topoheight' must be a topoheight on the chain (0 … ${top}, or -1 for the latest), got ${params.to_topoheight}`,
        );
      if (params.from_topoheight > to)
        throw new InvalidParamsError(
          `invalid params: 'from_topoheight' (${params.from_topoheight}) must not be above 'to_topoheight' (${to})`,
        );
      if (params.limit < 1 || params.limit > MAX_BALANCE_CHANGES)
        throw new InvalidParamsError(`invalid params: 'limit' must be 1 … ${MAX_BALANCE_CHANGES}, got ${params.limit}`);
      const asset = params.scid ? fromHex(params.scid, 32) : new Uint8Array(32);
      const at = (topoheight: number): BalanceAt => {
        const balance = chain.stateAt(chain.metaAtTopo(BigInt(topoheight))!).getBalance(asset, key);
        return { topoheight, data: balance ? toHex(encodeNonceBalance(balance)) : '' };
      };
      const changes: BalanceAt[] = [];
      const bisect = (lo: BalanceAt, hi: BalanceAt): void => {
        if (lo.data === hi.data || changes.length >= params.limit) return;
        if (hi.topoheight === lo.topoheight + 1) {
          changes.push(hi);
          return;
        }
        const mid = at(Math.floor((lo.topoheight + hi.topoheight) / 2));
        bisect(lo, mid);
        bisect(mid, hi);
      };
      bisect(at(params.from_topoheight), at(to));
      const complete = changes.length < params.limit;
      return {
        changes,
        to_topoheight: complete ? to : changes[changes.length - 1]!.topoheight,
        complete,
        status: 'OK',
      };
    },
  });
}
