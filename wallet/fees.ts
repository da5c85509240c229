/**
 * The wallet's default fee (docs/wallet.md § Transfers; wallet policy, not consensus): (payloads + 2) × 20 × (⌊ring/16⌋ + 1)
 * plus 1.5 × the size of the encoded contract arguments, because a contract transaction's fee is also its
 * storage-gas limit. The
 * pool's own floor (20 per started KiB) is checked against the built transaction by the sender.
 */
import { encodeRpcArguments } from '../protocol/rpc-arguments.js';
import { payloadItems } from './payload-items.js';
import type { TransferRequest } from './transfer-sender.js';

const FEE_PER_KIB = 20;

export function defaultFee(payloads: number, ringSize: number, scDataBytes: number): bigint {
  return BigInt((payloads + 2) * FEE_PER_KIB * (Math.floor(ringSize / 16) + 1) + Math.floor((3 * scDataBytes) / 2));
}

/** The default fee of `request`, the one the sender pays unless the request names its fee. */
export function requestFee(request: TransferRequest): bigint {
  return defaultFee(
    payloadItems(request.transfers).length,
    request.ringSize,
    request.scRpc ? encodeRpcArguments(request.scRpc).length : 0,
  );
}
