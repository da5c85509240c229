/** `wallet open` without --rpc-server: the wallet's address, the daemon's height and the balance, after a sync. */
import { UmbraError } from '../../core-native/ts/errors.js';
import { isTrustFailure, WalletError } from '../../wallet/wallet-error.js';
import { CliErrorCode } from '../cli-error.js';
import { describeAmount } from '../../protocol/coin-amount.js';
import { labelled } from './output.js';
import { syncHistory, type WalletSession } from './session.js';

export interface SummaryResult {
  wallet_file: string;
  network: string;
  address: string;
  daemon: string;
  height: number;
  /** Atomic units; null when the wallet cannot tell (e.g. the account is not registered yet), with `error` saying why. */
  balance: bigint | null;
  error?: string;
}

export async function summary(session: WalletSession): Promise<SummaryResult> {
  const { wallet } = session;
  // A daemon that cannot be reached, or whose answers do not check, fails the command; other sync failures leave the
  // history as it was and the summary says what it can.
  await syncHistory(session).catch((error: unknown) => {
    if (UmbraError.is(error, CliErrorCode.DaemonOffline) || isTrustFailure(error)) throw error;
  });
  let balance: bigint | null = null;
  let error: string | undefined;
  try {
    balance = await wallet.balance();
  } catch (failure) {
    if (!(failure instanceof WalletError) || isTrustFailure(failure)) throw failure;
    error = failure.message;
  }
  return {
    wallet_file: session.walletFile,
    network: wallet.keys.network,
    address: wallet.address,
    daemon: wallet.daemon.url,
    height: await wallet.height(),
    balance,
    ...(error === undefined ? {} : { error }),
  };
}

export const summaryText = (result: SummaryResult): string =>
  labelled([
    ['wallet file', result.wallet_file],
    ['network', result.network],
    ['address', result.address],
    ['daemon', result.daemon],
    ['height', String(result.height)],
    ['balance', result.balance === null ? (result.error ?? '') : describeAmount(result.balance)],
  ]);
