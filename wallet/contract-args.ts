/**
 * The `sc_rpc` arguments of contract transactions (docs/protocol.md § Transactions, "Contract transactions"): an install carries SC_ACTION 1 and the
 * code, a call SC_ACTION 0 and the SCID; the caller's own arguments (entrypoint, the function's parameters) follow,
 * and a reserved name the wallet sets replaces one the caller gave.
 */
import type { RpcArgument } from '../protocol/rpc-arguments.js';
import type { TransferItem } from './transfer-sender.js';
import { NATIVE_ASSET } from './wallet-constants.js';

const RESERVED = new Set(['SC_ACTION', 'SC_CODE', 'SC_ID']);

const withReserved = (args: readonly RpcArgument[], reserved: RpcArgument[]): RpcArgument[] => [
  ...reserved,
  ...args.filter((a) => !RESERVED.has(a.name)),
];

export function installArgs(code: string, args: readonly RpcArgument[] = []): RpcArgument[] {
  return withReserved(args, [
    { name: 'SC_ACTION', datatype: 'U', value: 1n },
    { name: 'SC_CODE', datatype: 'S', value: code },
  ]);
}

export function callArgs(scid: string, args: readonly RpcArgument[]): RpcArgument[] {
  return withReserved(args, [
    { name: 'SC_ACTION', datatype: 'U', value: 0n },
    { name: 'SC_ID', datatype: 'H', value: scid },
  ]);
}

/**
 * A call's deposits: burns on payloads of their asset (native coins, and the called contract's own token), to random
 * accounts, since the contract, not a receiver, gets them. A zero deposit adds no payload.
 */
export function depositItems(scid: string, nativeDeposit: bigint, tokenDeposit: bigint): TransferItem[] {
  const deposit = (asset: string, burn: bigint): TransferItem => ({
    destination: '',
    amount: 0n,
    scid: asset,
    burn,
    payloadRpc: [],
  });
  return [
    ...(nativeDeposit > 0n ? [deposit(NATIVE_ASSET, nativeDeposit)] : []),
    ...(tokenDeposit > 0n ? [deposit(scid, tokenDeposit)] : []),
  ];
}
