/**
 * Account queries of the daemon: NODE.GetEncryptedBalance (an account's encrypted balance of an asset at any
 * topoheight; `Account Unregistered` when it has none) and NODE.GetRandomAddress (registered addresses, or holders of
 * an asset, to fill transaction rings). docs/rpc.md § Daemon methods.
 */
import { randomInt } from 'node:crypto';
import { fromHex, toHex } from '../../../protocol/bytes.js';
import { encodeNonceBalance } from '../../../protocol/nonce-balance.js';
import { QueryError, QueryErrorCode } from '../../../protocol/query-errors.js';
import { InvalidParamsError } from '../../../host/rpc/errors.js';
import { objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import type { Chain } from '../chain.js';
import type { BlockMeta } from '../chain-store.js';

export interface AccountRpcDeps {
  chain: Chain;
  addressOf(key: Uint8Array): string;
  /** An address of this network as its key; throws with a message naming the problem. */
  keyOf(address: string): Uint8Array;
}

/** How many addresses GetRandomAddress returns at most. */
export const RANDOM_ADDRESSES = 100;
/** Accounts whose balance changed within this many blocks are left out of rings (once the chain is this long ×20). */
const RECENT_BLOCKS = 5n;
const MAX_REMEMBERED_REGISTRATIONS = 100_000;

export function accountMethods(deps: AccountRpcDeps): RpcMethod[] {
  return [getEncryptedBalanceMethod(deps, registrationFinder(deps.chain)), getRandomAddressMethod(deps)];
}

const assetId = (scid: string | undefined): Uint8Array => (scid ? fromHex(scid, 32) : new Uint8Array(32));

/**
 * The first topoheight (up to `upTo`) whose state holds a key, -1 when none does: a binary search, since a
 * registration is never undone on the main chain; on a node whose history starts later (pruned, fast-synced), at
 * most that first topoheight it holds. Results found are remembered, and checked (two reads) before reuse, since a
 * reorganisation may move one.
 */
function registrationFinder(chain: Chain): (key: Uint8Array, upTo: bigint) => bigint {
  const registrations = new Map<string, bigint>();
  return (key, upTo) => {
    const has = (topo: bigint): boolean =>
      chain.stateAt(chain.metaAtTopo(topo)!).getBalance(new Uint8Array(32), key) !== undefined;
    const hex = toHex(key);
    const known = registrations.get(hex);
    const floor = chain.historyFloor();
    if (known !== undefined && known >= floor && known <= upTo && has(known) && (known === floor || !has(known - 1n)))
      return known;
    let low = floor;
    let high = upTo;
    if (!has(high)) return -1n;
    while (low < high) {
      const mid = (low + high) / 2n;
      if (has(mid)) high = mid;
      else low = mid + 1n;
    }
    if (registrations.size >= MAX_REMEMBERED_REGISTRATIONS) registrations.delete(registrations.keys().next().value!);
    registrations.set(hex, low);
    return low;
  };
}

function getEncryptedBalanceMethod(
  deps: AccountRpcDeps,
  registrationTopo: (key: Uint8Array, upTo: bigint) => bigint,
): RpcMethod {
  return defineMethod({
    name: 'NODE.GetEncryptedBalance',
    aliases: ['getencryptedbalance'],
    params: objectParams(
      p.object({
        address: p.string(),
        scid: p.optional(p.hash(), undefined),
        topoheight: p.optional(p.int(), -1),
        treehash: p.optional(p.string(), undefined),
      }),
    ),
    handler: (params) => {
      const chain = deps.chain;
      let key: Uint8Array;
      try {
        key = deps.keyOf(params.address);
      } catch (error) {
        throw new InvalidParamsError(`invalid params: 'address': ${(error as Error).message}`);
      }
      const top = chain.top;
      if (params.topoheight < -1 || BigInt(params.topoheight) > top.height) {
        throw new QueryError(
          QueryErrorCode.TopoheightOffChain,
          `topoheight ${params.topoheight} is not on the chain (0 … ${top.height}, or -1 for the latest)`,
        );
      }
      const topo = params.topoheight === -1 ? top.height : BigInt(params.topoheight);
      const meta: BlockMeta = chain.heldMetaAtTopo(topo);
      const state = chain.stateAt(meta);
      const id = assetId(params.scid);
      const balance = state.getBalance(id, key);
      if (!balance) throw new QueryError(QueryErrorCode.AccountUnregistered, 'Account Unregistered');
      return {
        scid: toHex(id),
        data: toHex(encodeNonceBalance(balance)),
        registration: Number(registrationTopo(key, topo)),
        bits: state.balanceDepth(id, key) ?? 0,
        height: Number(meta.height),
        topoheight: Number(topo),
        blockhash: toHex(meta.id),
        treehash: toHex(meta.stateRoot),
        dheight: Number(top.height),
        dtopoheight: Number(top.height),
        dtreehash: toHex(top.stateRoot),
        status: 'OK',
      };
    },
  });
}

function getRandomAddressMethod(deps: AccountRpcDeps): RpcMethod {
  return defineMethod({
    name: 'NODE.GetRandomAddress',
    aliases: ['getrandomaddress'],
    params: objectParams(p.object({ scid: p.optional(p.hash(), undefined) })),
    handler: ({ scid }) => {
      const chain = deps.chain;
      const top = chain.top;
      const id = assetId(scid);
      const state = chain.stateAt();
      const keys = state.balanceKeys(id);
      // Leave out accounts touched in the last few blocks (their ring use would stand out), on chains long enough.
      const earlier =
        top.height > 20n * RECENT_BLOCKS ? chain.stateAt(chain.metaAtTopo(top.height - RECENT_BLOCKS)!) : undefined;
      const unchanged = (key: Uint8Array): boolean => {
        if (!earlier) return true;
        const before = earlier.getBalance(id, key);
        const now = state.getBalance(id, key)!;
        return before !== undefined && toHex(encodeNonceBalance(before)) === toHex(encodeNonceBalance(now));
      };
      for (let i = keys.length - 1; i > 0; i--) {
        const j = randomInt(i + 1);
        [keys[i], keys[j]] = [keys[j]!, keys[i]!];
      }
      const picked: string[] = [];
      for (const key of keys) {
        if (picked.length >= RANDOM_ADDRESSES) break;
        if (unchanged(key)) picked.push(deps.addressOf(key));
      }
      return { address: picked, status: 'OK' };
    },
  });
}
