/**
 * `wallet send DESTINATION AMOUNT [--asset SCID] [--ring N] [--payload NAME:TYPE=VALUE]… [--yes] [--no-wait]`: one
 * transfer to an address, an integrated address or a registered name; the answer ends with its payment proof.
 */
import type { RpcArgument } from '../../protocol/rpc-arguments.js';
import { DEFAULT_RING, NATIVE_ASSET } from '../../wallet/wallet-constants.js';
import { describeAmount } from '../../protocol/coin-amount.js';
import { labelled } from './output.js';
import type { WalletSession } from './session.js';
import { sentRows, submitTransaction, type SentTransaction, type SubmitOptions } from './transaction-submission.js';

export interface SendOptions extends SubmitOptions {
  destination: string;
  /** Atomic units. */
  amount: bigint;
  asset?: string;
  /** Arguments for the receiver's payload. */
  payload?: RpcArgument[];
}

export interface SendResult extends SentTransaction {
  destination: string;
  /** The plain address the destination resolved to. */
  address: string;
  asset: string;
  amount: bigint;
  /** The payment proof the receiver (or an arbiter) checks with `check-proof` (empty when the wallet has none). */
  proof: string;
}

export async function send(session: WalletSession, options: SendOptions): Promise<SendResult> {
  const asset = options.asset ?? NATIVE_ASSET;
  const resolved = await session.wallet.resolve(options.destination);
  const preview: [string, string][] = [['destination', options.destination]];
  if (resolved.address !== options.destination) preview.push(['address', resolved.address]);
  if (asset !== NATIVE_ASSET) preview.push(['asset', asset]);
  preview.push(['amount', describeAmount(options.amount, asset === NATIVE_ASSET ? 'coin' : 'token')]);
  const sent = await submitTransaction(
    session,
    {
      transfers: [
        {
          destination: options.destination,
          amount: options.amount,
          scid: asset,
          burn: 0n,
          payloadRpc: options.payload ?? [],
        },
      ],
    },
    DEFAULT_RING,
    preview,
    options,
  );
  const recorded = session.wallet.history.entries(asset).find((entry) => entry.txid === sent.txid && !entry.incoming);
  return {
    destination: options.destination,
    address: resolved.address,
    asset,
    amount: options.amount,
    ...sent,
    proof: recorded?.proof ?? '',
  };
}

export const sendText = (result: SendResult): string =>
  labelled([
    ['sent', describeAmount(result.amount, result.asset === NATIVE_ASSET ? 'coin' : 'token')],
    ['to', result.address],
    ...sentRows(result),
    ...(result.proof ? [['proof', result.proof] as [string, string]] : []),
  ]);
