/**
 * `wallet register`: puts a new wallet's account on chain — its registration transaction (a proof of work, no fee) in
 * a block — so that it can receive; a first `send` registers too, before sending. The steps (proof of work, sent,
 * waiting for block N) are noted on stderr as they happen. An account already on chain is left as it is.
 */
import { UmbraError } from '../../core-native/ts/errors.js';
import { WalletErrorCode } from '../../wallet/wallet-error.js';
import type { WalletSession } from './session.js';

export interface RegisterResult {
  address: string;
  network: string;
  /** Whether the account was on chain before the command. */
  already_registered: boolean;
  /** How long the registration took (0 when already registered). */
  seconds: number;
}

export async function register(session: WalletSession): Promise<RegisterResult> {
  const { wallet } = session;
  const result = { address: wallet.address, network: wallet.keys.network };
  const registeredBefore = await wallet.balance().then(
    () => true,
    (error: unknown) => {
      if (UmbraError.is(error, WalletErrorCode.AccountUnregistered)) return false;
      throw error;
    },
  );
  if (registeredBefore) return { ...result, already_registered: true, seconds: 0 };
  const started = performance.now();
  await wallet.registration.ensure();
  return { ...result, already_registered: false, seconds: Math.round(performance.now() - started) / 1000 };
}

export const registerText = (result: RegisterResult): string =>
  result.already_registered
    ? `already registered: ${result.address}\n`
    : `registered: ${result.address} (in ${result.seconds.toFixed(1)} s)\n`;
