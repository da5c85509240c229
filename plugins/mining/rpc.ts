/** `NODE.GetBlockTemplate` and `NODE.SubmitBlock` (docs/rpc.md § NODE.GetBlockTemplate, § NODE.SubmitBlock). */
import { fromHex, toHex } from '../../protocol/bytes.js';
import { AddressError } from '../../protocol/address-errors.js';
import { InvalidParamsError } from '../../host/rpc/errors.js';
import { objectParams, p } from '../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../host/rpc/registry.js';
import { encodeBlock } from '../../protocol/block.js';
import type { MiningService } from './mining-service.js';

export interface MiningRpcDeps {
  mining(): MiningService;
  /** The 33-byte key of an address of this network; throws with a clear message when it is not one. */
  keyOf(address: string): Uint8Array;
}

export function miningMethods(deps: MiningRpcDeps): RpcMethod[] {
  return [
    defineMethod({
      name: 'NODE.GetBlockTemplate',
      aliases: ['getblocktemplate'],
      params: objectParams(
        p.object({ wallet_address: p.string(), block: p.optional(p.bool(), false), miner: p.optional(p.string(), '') }),
      ),
      handler: ({ wallet_address, block }) => {
        let key: Uint8Array;
        try {
          key = deps.keyOf(wallet_address);
        } catch (error) {
          if (!(error instanceof AddressError)) throw error;
          throw new AddressError(error.code, `wallet_address could not be parsed: ${error.message}`, { cause: error });
        }
        const mining = deps.mining();
        const job = mining.template(key, block);
        return {
          jobid: job.id,
          ...(block ? { blocktemplate_blob: toHex(encodeBlock(job.block!)) } : {}),
          blockhashing_blob: toHex(job.blob),
          difficulty: job.difficulty.toString(),
          difficultyuint64: Number(job.difficulty),
          height: Number(job.height),
          prev_hash: toHex(job.tip),
          epochmilli: Date.now(),
          blocks: mining.blocksFound,
          miniblocks: mining.pooledCount(),
          lasterror: '',
          status: 'OK',
        };
      },
    }),
    defineMethod({
      name: 'NODE.SubmitBlock',
      aliases: ['submitblock'],
      params: objectParams(
        p.object({
          jobid: p.optional(p.string(), undefined),
          mbl_blob: p.optional(p.hex(), undefined),
          block_blob: p.optional(p.hex(), undefined),
        }),
      ),
      handler: async ({ jobid, mbl_blob, block_blob }) => {
        // Umbra extension: a complete block (e.g. from another node) can be submitted as `block_blob`.
        if (block_blob !== undefined) return deps.mining().submitBlock(fromHex(block_blob));
        if (jobid === undefined || mbl_blob === undefined)
          throw new InvalidParamsError(
            "invalid params: give 'jobid' and 'mbl_blob' (a solved miniblock), or 'block_blob' (a complete block)",
          );
        return deps.mining().submit(jobid, fromHex(mbl_blob));
      },
    }),
  ];
}
