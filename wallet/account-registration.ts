/**
 * Registration on first use: an account exists on chain only once its REGISTRATION transaction (the key, a Schnorr
 * signature, the network's proof of work) is mined. `ensure` submits it when the daemon does not know the account and
 * polls NODE.GetEncryptedBalance until a block holds it; concurrent callers (start-up, a transfer) share one attempt.
 */
import type { Core } from '../core-native/ts/core.js';
import { CHAIN_PARAMS } from '../host/protocol/chain-params.js';
import { NETWORKS } from '../host/protocol/network.js';
import { makeRegistration } from '../host/protocol/registration.js';
import { encodeTransaction } from '../host/protocol/transaction.js';
import { UmbraError } from '../host/errors.js';
import { DaemonClientErrorCode, DaemonRpcError, type DaemonClient } from './daemon-client.js';
import { NATIVE_ASSET } from './wallet-constants.js';
import { WalletError, WalletErrorCode } from './wallet-error.js';
import type { WalletKeys } from './wallet-keys.js';

export interface RegistrationTiming {
  /** How often the daemon is asked whether the registration is mined. */
  pollMs: number;
  /** How long to wait for it before giving up (the registration stays in the pool). */
  timeoutMs: number;
}

export const DEFAULT_REGISTRATION_TIMING: RegistrationTiming = { pollMs: 1_000, timeoutMs: 10 * 60_000 };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class AccountRegistration {
  private registered = false;
  private inFlight?: Promise<void>;

  constructor(
    private readonly core: Core,
    private readonly keys: WalletKeys,
    private readonly daemon: DaemonClient,
    private readonly timing: RegistrationTiming = DEFAULT_REGISTRATION_TIMING,
  ) {}

  /** Resolves once the account is registered on chain, registering it first if needed. */
  ensure(): Promise<void> {
    if (this.registered) return Promise.resolve();
    this.inFlight ??= this.register().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async isRegistered(): Promise<boolean> {
    try {
      await this.daemon.getEncryptedBalance(this.keys.address, NATIVE_ASSET);
      return (this.registered = true);
    } catch (error) {
      if (UmbraError.is(error, DaemonClientErrorCode.AccountUnregistered)) return false;
      throw error;
    }
  }

  private async register(): Promise<void> {
    if (await this.isRegistered()) return;
    const { G } = this.core.generators(NETWORKS[this.keys.network].generatorDomain);
    const tx = makeRegistration(this.core, G, this.keys.secretKey, CHAIN_PARAMS[this.keys.network].registrationPowBits);
    try {
      await this.daemon.sendRawTransaction(encodeTransaction(tx));
    } catch (error) {
      // An earlier attempt (or another process with this wallet) already put one in the pool: wait for that one.
      if (!UmbraError.is(error, DaemonClientErrorCode.RegistrationPending)) {
        throw error instanceof DaemonRpcError
          ? new WalletError(
              WalletErrorCode.RegistrationRefused,
              `the daemon refused the account's registration: ${error.message}`,
            )
          : error;
      }
    }
    const deadline = Date.now() + this.timing.timeoutMs;
    while (Date.now() < deadline) {
      await sleep(this.timing.pollMs);
      if (await this.isRegistered()) return;
    }
    throw new WalletError(
      WalletErrorCode.RegistrationTimeout,
      `the account's registration is not mined after ${Math.round(this.timing.timeoutMs / 1000)} s; it stays in the pool, retry later`,
    );
  }
}
