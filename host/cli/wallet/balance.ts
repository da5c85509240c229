/** `wallet balance [--asset SCID]`: the wallet's balance of the native coin or of a token, at the daemon's top. */
import { NATIVE_ASSET } from '../../../wallet/wallet-constants.js';
import { describeAmount } from './amount.js';
import { labelled } from './output.js';
import type { WalletSession } from './session.js';

export interface BalanceResult {
  asset: string;
  /** Atomic units. */
  balance: bigint;
  height: number;
}

export async function balance(session: WalletSession, options: { asset?: string }): Promise<BalanceResult> {
  const asset = options.asset ?? NATIVE_ASSET;
  const amount = await session.wallet.balance(asset);
  return { asset, balance: amount, height: await session.wallet.height() };
}

export const balanceText = (result: BalanceResult): string =>
  labelled([
    ...(result.asset === NATIVE_ASSET ? [] : [['asset', result.asset] as [string, string]]),
    ['balance', describeAmount(result.balance)],
    ['height', String(result.height)],
  ]);
