/**
 * The simulator's daemon methods (docs/rpc.md § Simulator methods), Umbra extensions found on `umbra simulator` only:
 * mining on demand, the next block's timestamp, snapshots, and funding an account from the premine. Each refuses
 * params it does not know.
 */
import type { AddressCodec } from '../../protocol/address.js';
import { fromHex, toHex } from '../../protocol/bytes.js';
import { NATIVE_SCID } from '../../protocol/transfer-checks.js';
import { InvalidParamsError } from '../../host/rpc/errors.js';
import { noParams, objectParams, p } from '../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../host/rpc/registry.js';
import type { ChainService } from '../../host/services/chain.js';
import type { AutoMiner } from './auto-miner.js';
import { PremineShortError } from './fund-accounts.js';
import type { Snapshots } from './snapshots.js';

const MAX_BLOCKS_PER_REQUEST = 100;

export interface SimulatorRpcDeps {
  chain: ChainService;
  miner: AutoMiner;
  snapshots: Snapshots;
  addresses: AddressCodec;
  /** Pays `amount` of `scid` to `key` from the premine and mines the block; returns the txid and block id. */
  fund(key: Uint8Array, amount: bigint, scid: Uint8Array): Promise<{ txid: string; blid: string }>;
}

export function simulatorMethods(deps: SimulatorRpcDeps): RpcMethod[] {
  const { chain, miner, snapshots } = deps;
  return [
    defineMethod({
      name: 'SIMULATOR.Mine',
      params: objectParams(
        p.strictObject({
          count: p.optional(p.uint(), undefined),
          blocks: p.optional(p.uint(), undefined),
          timestamp_step_ms: p.optional(p.uint(), undefined),
        }),
      ),
      handler: async ({ count, blocks, timestamp_step_ms: step }) => {
        if (count !== undefined && blocks !== undefined)
          throw new InvalidParamsError("invalid params: give 'count' or its older name 'blocks', not both");
        const n = count ?? blocks ?? 1;
        if (n < 1 || n > MAX_BLOCKS_PER_REQUEST)
          throw new InvalidParamsError(`invalid params: 'count' must be 1 … ${MAX_BLOCKS_PER_REQUEST}, got ${n}`);
        return { blids: await miner.mine(n, step === undefined ? undefined : BigInt(step)), status: 'OK' };
      },
    }),
    defineMethod({
      name: 'SIMULATOR.SetNextTimestamp',
      params: p.strictObject({ timestamp: p.uint() }),
      handler: async ({ timestamp }) => {
        const at = BigInt(timestamp);
        if (at < chain.top.timestamp)
          throw new InvalidParamsError(
            `invalid params: 'timestamp' ${at} is before the top block's timestamp ${chain.top.timestamp}`,
          );
        miner.setNextTimestamp(at);
        return { status: 'OK' };
      },
    }),
    defineMethod({
      name: 'SIMULATOR.Snapshot',
      params: noParams,
      handler: async () => ({
        id: `0x${(await snapshots.take()).toString(16)}`,
        height: Number(chain.top.height),
        status: 'OK',
      }),
    }),
    defineMethod({
      name: 'SIMULATOR.Revert',
      params: p.strictObject({ id: p.string() }),
      handler: async ({ id }) => {
        const n = /^0x[0-9a-f]{1,8}$/i.test(id) ? Number.parseInt(id.slice(2), 16) : -1;
        if (!(n > 0 && (await snapshots.revert(n))))
          throw new InvalidParamsError(
            `invalid params: there is no snapshot ${JSON.stringify(id)} (never taken, or used by a revert)`,
          );
        return { height: Number(chain.top.height), status: 'OK' };
      },
    }),
    defineMethod({
      name: 'SIMULATOR.Fund',
      params: p.strictObject({
        address: p.string(),
        amount: p.uint64(),
        scid: p.optional(p.hash(), toHex(NATIVE_SCID)),
      }),
      handler: async ({ address, amount, scid }) => {
        let key: Uint8Array;
        try {
          key = deps.addresses.toRaw(address);
        } catch (error) {
          throw new InvalidParamsError(`invalid params: 'address': ${(error as Error).message}`);
        }
        if (!chain.isRegistered(key))
          throw new InvalidParamsError(`invalid params: ${address} is not registered on this chain`);
        if (amount === 0n) throw new InvalidParamsError("invalid params: 'amount' must be above 0");
        try {
          return { ...(await deps.fund(key, amount, fromHex(scid))), status: 'OK' };
        } catch (error) {
          if (error instanceof PremineShortError) throw new InvalidParamsError(`invalid params: ${error.message}`);
          throw error;
        }
      },
    }),
  ];
}
