/**
 * The wallet's sending methods (docs/rpc.md § transfer, § scinvoke): `transfer` (items with destination, amount, scid, burn,
 * payload_rpc; or the single form `destination` + `amount`; `sc` installs, top-level `scid` or `sc_rpc` call a
 * contract) and `scinvoke` (a contract call with native and token deposits, ring 2 by default so that the contract
 * knows its signer). A contract install or call is first tried on the daemon and refused when it would fail, unless
 * `force` is true. Without a `ringsize`, a young chain that cannot fill the default ring gets the largest ring it can.
 * Both answer `{txid}`; a WalletError (including the daemon's refusal) is -32098 with its message and code.
 * Their params are strict (an unknown key is -32602 with the closest known one, so a typo never sends a different
 * transaction) and amounts are uint64s, exact beyond 2^53.
 */
import { InvalidParamsError } from '../../../host/rpc/errors.js';
import { objectParams, p, type ParamCheck } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import { callArgs, depositItems, installArgs } from '../../../wallet/contract-args.js';
import type { TransferItem, TransferRequest } from '../../../wallet/transfer-sender.js';
import { DEFAULT_CONTRACT_RING, DEFAULT_RING, NATIVE_ASSET } from '../../../wallet/wallet-constants.js';
import type { WalletService } from '../../../wallet/wallet-service.js';

/** A ring size: absent or 0 is undefined (the wallet chooses); otherwise a power of two from 2 to 128. */
const ringSize: ParamCheck<number | undefined> = (value, path) => {
  const size = p.optional(p.uint(), 0)(value, path);
  if (size === 0) return undefined;
  if (size < 2 || size > 128 || (size & (size - 1)) !== 0)
    throw new InvalidParamsError(`invalid params: '${path}' must be a power of two from 2 to 128, got ${size}`);
  return size;
};

const transferItemFields = p.strictObject({
  destination: p.optional(p.string(), ''),
  amount: p.optional(p.uint64(), undefined),
  scid: p.optional(p.hash(), NATIVE_ASSET),
  burn: p.optional(p.uint64(), undefined),
  payload_rpc: p.optional(p.rpcArguments(), []),
});

/** A transfer item; one that names neither an amount nor a burn moves nothing and is refused. */
const transferItem: ParamCheck<TransferItem> = (value, path) => {
  const item = transferItemFields(value, path);
  if (item.amount === undefined && item.burn === undefined)
    throw new InvalidParamsError(`invalid params: '${path}' needs 'amount' or 'burn'`);
  return {
    destination: item.destination,
    amount: item.amount ?? 0n,
    scid: item.scid,
    burn: item.burn ?? 0n,
    payloadRpc: item.payload_rpc,
  };
};

/** Sends `request` with the ring asked for, or the default the chain can fill. */
const sending = async (
  wallet: WalletService,
  request: Omit<TransferRequest, 'ringSize'>,
  ringsize: number | undefined,
  fallback: number,
): Promise<{ txid: string }> => {
  const ring = await wallet.transfers.chooseRing(ringsize, fallback);
  return { txid: await wallet.transfers.send({ ...request, ringSize: ring.size }) };
};

export function transferMethods(wallet: WalletService): RpcMethod[] {
  return [
    defineMethod({
      name: 'transfer',
      aliases: ['transfer_split'],
      params: objectParams(
        p.strictObject({
          transfers: p.optional(p.array(transferItem), []),
          destination: p.optional(p.string(), ''),
          amount: p.optional(p.uint64(), undefined),
          scid: p.optional(p.hash(), undefined),
          sc: p.optional(p.string(), undefined),
          sc_rpc: p.optional(p.rpcArguments(), []),
          ringsize: ringSize,
          fees: p.optional(p.uint64(), 0n),
          force: p.optional(p.bool(), false),
        }),
      ),
      handler: (params) => {
        const transfers = [...params.transfers];
        if (params.destination !== '') {
          if (params.amount === undefined) throw new InvalidParamsError("invalid params: 'destination' needs 'amount'");
          transfers.push({
            destination: params.destination,
            amount: params.amount,
            scid: NATIVE_ASSET,
            burn: 0n,
            payloadRpc: [],
          });
        }
        const scRpc = params.scid
          ? callArgs(params.scid, params.sc_rpc)
          : params.sc !== undefined
            ? installArgs(params.sc, params.sc_rpc)
            : params.sc_rpc.length > 0
              ? params.sc_rpc
              : undefined;
        if (transfers.length === 0 && !scRpc)
          throw new InvalidParamsError(
            "invalid params: give 'transfers' (or 'destination' and 'amount'), or contract arguments",
          );
        return sending(
          wallet,
          { transfers, fees: params.fees > 0n ? params.fees : undefined, scRpc, force: params.force },
          params.ringsize,
          DEFAULT_RING,
        );
      },
    }),
    defineMethod({
      name: 'scinvoke',
      params: objectParams(
        p.strictObject({
          scid: p.hash(),
          sc_rpc: p.optional(p.rpcArguments(), []),
          sc_dero_deposit: p.optional(p.uint64(), 0n),
          sc_token_deposit: p.optional(p.uint64(), 0n),
          ringsize: ringSize,
          fees: p.optional(p.uint64(), 0n),
          force: p.optional(p.bool(), false),
        }),
      ),
      handler: (params) =>
        sending(
          wallet,
          {
            transfers: depositItems(params.scid, params.sc_dero_deposit, params.sc_token_deposit),
            fees: params.fees > 0n ? params.fees : undefined,
            scRpc: callArgs(params.scid, params.sc_rpc),
            force: params.force,
          },
          params.ringsize,
          DEFAULT_CONTRACT_RING,
        ),
    }),
  ];
}
