/**
 * The payloads a transfer request becomes: its items, plus one to a random account in the native coin when no item is
 * native, because the native payload carries the fee (docs/wallet.md § Transfers).
 */
import type { TransferItem } from './transfer-sender.js';
import { NATIVE_ASSET } from './wallet-constants.js';

export const payloadItems = (transfers: readonly TransferItem[]): readonly TransferItem[] =>
  transfers.some((item) => item.scid === NATIVE_ASSET)
    ? transfers
    : [...transfers, { destination: '', amount: 0n, scid: NATIVE_ASSET, burn: 0n, payloadRpc: [] }];
