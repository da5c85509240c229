/**
 * The wallet's sending methods (docs/rpc.md § transfer, § scinvoke): `transfer` (items with destination, amount, scid, burn,
 * payload_rpc; or the single form `destination` + `amount`; `sc` installs, top-level `scid` or `sc_rpc` call a
 * contract) and `scinvoke` (a contract call with native and token deposits, ring 2 by default so that the contract
 * knows its signer). Both answer `{txid}`; a WalletError (including the daemon's refusal) is -32098 with its message.
 */
import type { RpcArgument } from '../../../host/protocol/rpc-arguments.js';
import { InvalidParamsError } from '../../../host/rpc/errors.js';
import { objectParams, p, type ParamCheck } from '../../../host/rpc/params.js';
import type { RpcMethod } from '../../../host/rpc/registry.js';
import { callArgs, installArgs } from '../../../wallet/contract-args.js';
import type { TransferItem, TransferRequest } from '../../../wallet/transfer-sender.js';
import { NATIVE_ASSET } from '../../../wallet/wallet-constants.js';
import type { WalletService } from '../../../wallet/wallet-service.js';
import { answering } from './answering.js';

const DEFAULT_RING = 16;
/** A contract call with a ring of 2 reveals the signer, which contracts need to know who deposits. */
const DEFAULT_CONTRACT_RING = 2;

/** A ring size: absent or 0 gives `fallback`; otherwise a power of two from 2 to 128. */
const ringSize =
  (fallback: number): ParamCheck<number> =>
  (value, path) => {
    const size = p.optional(p.uint(), 0)(value, path) || fallback;
    if (size < 2 || size > 128 || (size & (size - 1)) !== 0)
      throw new InvalidParamsError(`invalid params: '${path}' must be a power of two from 2 to 128, got ${size}`);
    return size;
  };

const transferItem = p.object({
  destination: p.optional(p.string(), ''),
  amount: p.optional(p.uint(), 0),
  scid: p.optional(p.hash(), NATIVE_ASSET),
  burn: p.optional(p.uint(), 0),
  payload_rpc: p.optional(p.rpcArguments(), []),
});

type ItemParams = ReturnType<typeof transferItem>;

const toItem = (item: ItemParams): TransferItem => ({
  destination: item.destination,
  amount: BigInt(item.amount),
  scid: item.scid,
  burn: BigInt(item.burn),
  payloadRpc: item.payload_rpc,
});

const sending = async (wallet: WalletService, request: TransferRequest): Promise<{ txid: string }> => ({
  txid: await answering(wallet.transfers.send(request)),
});

export function transferMethods(wallet: WalletService): RpcMethod<any, unknown>[] {
  return [
    {
      name: 'transfer',
      aliases: ['transfer_split'],
      params: objectParams(
        p.object({
          transfers: p.optional(p.array(transferItem), []),
          destination: p.optional(p.string(), ''),
          amount: p.optional(p.uint(), 0),
          scid: p.optional(p.hash(), undefined),
          sc: p.optional(p.string(), undefined),
          sc_rpc: p.optional(p.rpcArguments(), []),
          ringsize: ringSize(DEFAULT_RING),
          fees: p.optional(p.uint(), 0),
        }),
      ),
      handler: (params: {
        transfers: ItemParams[];
        destination: string;
        amount: number;
        scid?: string;
        sc?: string;
        sc_rpc: RpcArgument[];
        ringsize: number;
        fees: number;
      }) => {
        const transfers = params.transfers.map(toItem);
        if (params.destination !== '')
          transfers.push({
            destination: params.destination,
            amount: BigInt(params.amount),
            scid: NATIVE_ASSET,
            burn: 0n,
            payloadRpc: [],
          });
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
        return sending(wallet, {
          transfers,
          ringSize: params.ringsize,
          fees: params.fees > 0 ? BigInt(params.fees) : undefined,
          scRpc,
        });
      },
    },
    {
      name: 'scinvoke',
      params: objectParams(
        p.object({
          scid: p.hash(),
          sc_rpc: p.optional(p.rpcArguments(), []),
          sc_dero_deposit: p.optional(p.uint(), 0),
          sc_token_deposit: p.optional(p.uint(), 0),
          ringsize: ringSize(DEFAULT_CONTRACT_RING),
          fees: p.optional(p.uint(), 0),
        }),
      ),
      handler: (params: {
        scid: string;
        sc_rpc: RpcArgument[];
        sc_dero_deposit: number;
        sc_token_deposit: number;
        ringsize: number;
        fees: number;
      }) => {
        // Deposits are burns on payloads of their asset, to random accounts (the contract, not a receiver, gets them).
        const transfers: TransferItem[] = [];
        if (params.sc_dero_deposit > 0)
          transfers.push({
            destination: '',
            amount: 0n,
            scid: NATIVE_ASSET,
            burn: BigInt(params.sc_dero_deposit),
            payloadRpc: [],
          });
        if (params.sc_token_deposit > 0)
          transfers.push({
            destination: '',
            amount: 0n,
            scid: params.scid,
            burn: BigInt(params.sc_token_deposit),
            payloadRpc: [],
          });
        return sending(wallet, {
          transfers,
          ringSize: params.ringsize,
          fees: params.fees > 0 ? BigInt(params.fees) : undefined,
          scRpc: callArgs(params.scid, params.sc_rpc),
        });
      },
    },
  ];
}
