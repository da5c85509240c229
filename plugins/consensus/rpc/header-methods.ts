/**
 * NODE.GetHeaders (an Umbra extension): the main chain's serialised blocks from a topoheight on, with their ids — what
 * a light client checks its header chain with (docs/rpc.md § NODE.GetHeaders, docs/wallet.md § The header chain).
 * An answer holds at most MAX_HEADERS blocks and stops once its blocks reach MAX_HEADER_BYTES, so a call's work is
 * bounded whatever it asks.
 */
import { toHex } from '../../../protocol/bytes.js';
import { InvalidParamsError } from '../../../host/rpc/errors.js';
import { objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import type { Chain } from '../chain.js';
import { HistoryErrorCode, HistoryNotHeld } from '../history-error.js';

/** Most blocks one answer holds. */
export const MAX_HEADERS = 1000;
/** An answer stops adding blocks once their serialised bytes reach this (a block lists at most 10 000 txids). */
export const MAX_HEADER_BYTES = 4 * 1024 * 1024;

export interface HeaderRpcDeps {
  chain: Chain;
}

interface ServedHeader {
  hash: string;
  /** The serialised block, hex. */
  blob: string;
  /** The difficulty it was mined at and the chain's work through it (decimal), as this node computed them. */
  difficulty: string;
  cumulative_difficulty: string;
}

export function headerMethods(deps: HeaderRpcDeps): RpcMethod[] {
  return [
    defineMethod({
      name: 'NODE.GetHeaders',
      aliases: ['getheaders'],
      params: objectParams(p.object({ topoheight: p.uint(), count: p.optional(p.uint(), MAX_HEADERS) })),
      handler: ({ topoheight, count }) => {
        if (count < 1 || count > MAX_HEADERS)
          throw new InvalidParamsError(`invalid params: 'count' must be 1 … ${MAX_HEADERS}, got ${count}`);
        const { chain } = deps;
        const top = chain.top.height;
        const headers: ServedHeader[] = [];
        let bytes = 0;
        for (let at = BigInt(topoheight); at <= top && headers.length < count && bytes < MAX_HEADER_BYTES; at++) {
          const meta = chain.heldMetaAtTopo(at);
          const blob = chain.blockBytes(meta.id);
          if (!blob) throw new HistoryNotHeld(HistoryErrorCode.BlockNotHeld, at, chain.blocks.blockFloor());
          bytes += blob.length;
          headers.push({
            hash: toHex(meta.id),
            blob: toHex(blob),
            difficulty: meta.difficulty.toString(),
            cumulative_difficulty: meta.cumulativeWork.toString(),
          });
        }
        return { headers, top_topoheight: Number(top), status: 'OK' };
      },
    }),
  ];
}
