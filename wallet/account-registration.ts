/**
 * Registration on first use: an account exists on chain only once its REGISTRATION transaction (the key, a Schnorr
 * signature, the network's proof of work) is mined. `ensure` submits it when the daemon does not know the account,
 * then watches the daemon's height and asks NODE.GetEncryptedBalance after each new block until one holds it;
 * concurrent callers (start-up, a transfer) share one attempt. Each step is reported to `progress`. The proof of
 * work runs off the event loop (registration-pow.ts); `close` stops it.
 */
import type { Core } from '../core-native/ts/core.js';
import { CHAIN_PARAMS } from '../protocol/chain-params.js';
import { NETWORKS } from '../protocol/network.js';
import { toHex } from '../protocol/bytes.js';
import { registrationId } from '../protocol/registration.js';
import { encodeTransaction } from '../protocol/transaction.js';
import { UmbraError } from '../core-native/ts/errors.js';
import { DaemonClientErrorCode, DaemonRpcError, type DaemonClient } from './daemon-client.js';
import { computeRegistration } from './registration-pow.js';
import { NATIVE_ASSET } from './wallet-constants.js';
import { daemonRefusal, WalletError, WalletErrorCode } from './wallet-error.js';
import type { WalletKeys } from './wallet-keys.js';

export interface RegistrationTiming {
  /** How often the daemon's height is asked while waiting for the block that mines the registration. */
  pollMs: number;
  /** How long to wait for it before giving up (the registration stays in the pool). */
  timeoutMs: number;
}

/** A height poll is one cheap call: polling often costs little and notices a block (on the simulator, at once) soon. */
export const DEFAULT_REGISTRATION_TIMING: RegistrationTiming = { pollMs: 100, timeoutMs: 10 * 60_000 };

/** What the registration is doing. */
export type RegistrationStep =
  | { step: 'proof-of-work'; bits: number }
  | { step: 'sent'; txid: string; powMs: number }
  | { step: 'waiting'; height: number };

/** A step as a line for people. */
export function describeRegistrationStep(step: RegistrationStep): string {
  switch (step.step) {
    case 'proof-of-work':
      return `registration: computing the proof of work (${step.bits} leading zero bits)`;
    case 'sent':
      return `registration: sent ${step.txid} (proof of work ${step.powMs} ms)`;
    case 'waiting':
      return `registration: waiting for block ${step.height}`;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class AccountRegistration {
  private registered = false;
  private inFlight?: Promise<void>;
  private readonly closing = new AbortController();

  constructor(
    private readonly core: Core,
    private readonly keys: WalletKeys,
    private readonly daemon: DaemonClient,
    private readonly timing: RegistrationTiming = DEFAULT_REGISTRATION_TIMING,
    private readonly progress: (step: RegistrationStep) => void = () => undefined,
  ) {}

  /** Resolves once the account is registered on chain, registering it first if needed. */
  ensure(): Promise<void> {
    if (this.registered) return Promise.resolve();
    this.inFlight ??= this.register().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** Stops a proof of work in progress (its `ensure` fails with RegistrationCancelled); later calls fail alike. */
  close(): void {
    this.closing.abort();
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
    const bits = CHAIN_PARAMS[this.keys.network].registrationPowBits;
    this.progress({ step: 'proof-of-work', bits });
    const started = performance.now();
    const { G } = this.core.generators(NETWORKS[this.keys.network].generatorDomain);
    const tx = await computeRegistration(this.core, G, this.keys.secretKey, bits, this.closing.signal);
    const powMs = Math.round(performance.now() - started);
    // Read before sending: any later height may hold the registration.
    let height = (await this.daemon.getHeight()).height;
    try {
      await this.daemon.sendRawTransaction(encodeTransaction(tx));
    } catch (error) {
      // An earlier attempt (or another process with this wallet) already put one in the pool: wait for that one,
      // which may have been mined before the height was read.
      if (UmbraError.is(error, DaemonClientErrorCode.RegistrationPending) && (await this.isRegistered())) return;
      if (!UmbraError.is(error, DaemonClientErrorCode.RegistrationPending)) {
        throw error instanceof DaemonRpcError
          ? daemonRefusal(
              WalletErrorCode.RegistrationRefused,
              `the daemon refused the account's registration: ${error.message}`,
              error,
            )
          : error;
      }
    }
    this.progress({ step: 'sent', txid: toHex(registrationId(this.core, tx)), powMs });
    this.progress({ step: 'waiting', height: height + 1 });
    const deadline = Date.now() + this.timing.timeoutMs;
    while (Date.now() < deadline) {
      await sleep(this.timing.pollMs);
      const now = (await this.daemon.getHeight()).height;
      if (now === height) continue;
      if (await this.isRegistered()) return;
      height = now;
      this.progress({ step: 'waiting', height: height + 1 });
    }
    throw new WalletError(
      WalletErrorCode.RegistrationTimeout,
      `the account's registration is not mined after ${Math.round(this.timing.timeoutMs / 1000)} s; it stays in the pool, retry later`,
    );
  }
}
