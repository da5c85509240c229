/** `wallet balance [--asset SCID]`: the wallet's balance of the native coin or of a token, at the daemon's top. */
import { UmbraError } from '../../core-native/ts/errors.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';
import { WalletError, WalletErrorCode } from '../../wallet/wallet-error.js';
import { describeAmount } from '../../protocol/coin-amount.js';
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
  const amount = await session.wallet.balance(asset).catch((error: unknown) => {
    if (!UmbraError.is(error, WalletErrorCode.AccountUnregistered)) throw error;
    throw new WalletError(
      WalletErrorCode.AccountUnregistered,
      `the account ${session.wallet.address} is not registered on this chain yet, so it holds nothing and cannot receive: \`umbra wallet register\` registers it (a first send does too)`,
    );
  });
  return { asset, balance: amount, height: await session.wallet.height() };
}

export const balanceText = (result: BalanceResult): string =>
  labelled([
    ...(result.asset === NATIVE_ASSET ? [] : [['asset', result.asset] as [string, string]]),
    ['balance', describeAmount(result.balance, result.asset === NATIVE_ASSET ? 'coin' : 'token')],
    ['height', String(result.height)],
  ]);
