/**
 * Registration on first use: an account exists on chain only once its REGISTRATION transaction (the key, a Schnorr
 * signature, the network's proof of work) is mined. `ensure` submits it when the daemon does not know the account,
 * then watches the daemon's height and asks NODE.GetEncryptedBalance after each new block until one holds it — saying,
 * when the newest block grows old meanwhile, that nobody seems to be mining; concurrent callers (start-up, a transfer)
 * share one attempt. Each step is reported to `progress`. The proof of work runs off the event loop
 * (registration-pow.ts); `close` stops it.
 */
import type { Core } from '../core-native/ts/core.js';
import { CHAIN_PARAMS, TARGET_BLOCK_TIME_MS } from '../protocol/chain-params.js';
import { NETWORKS } from '../protocol/network.js';
import { toHex } from '../protocol/bytes.js';
import { registrationId } from '../protocol/registration.js';
import { encodeTransaction } from '../protocol/transaction.js';
import { UmbraError } from '../core-native/ts/errors.js';
import type { ChainAccess } from './chain-access/chain-access.js';
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
  /** How old the newest block may grow while the wallet waits before it says that nobody seems to be mining. */
  stallMs?: number;
}

/** A height poll is one cheap call: polling often costs little and notices a block (on the simulator, at once) soon. */
export const DEFAULT_REGISTRATION_TIMING: RegistrationTiming = { pollMs: 100, timeoutMs: 10 * 60_000 };

/** Five block times without a block: a chain that is mined goes that long without one less than once in a hundred. */
const DEFAULT_STALL_MS = 5 * Number(TARGET_BLOCK_TIME_MS);
/** How long the wallet waits before it judges an old newest block: a miner that works on demand (the simulator) mines sooner. */
const FIRST_JUDGEMENT_MS = 5_000;

/** What the registration is doing. */
export type RegistrationStep =
  | { step: 'proof-of-work'; bits: number }
  | { step: 'sent'; txid: string; powMs: number }
  | { step: 'waiting'; height: number }
  /** The newest block (at `height`) is `idleMs` old while the registration waits: nobody seems to be mining. */
  | { step: 'no-miner'; height: number; idleMs: number };

/** A duration for people: seconds, minutes, hours or days. */
function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86_400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

/** A step as a line for people. */
export function describeRegistrationStep(step: RegistrationStep): string {
  switch (step.step) {
    case 'proof-of-work':
      return `registration: computing the proof of work (${step.bits} leading zero bits)`;
    case 'sent':
      return `registration: sent ${step.txid} (proof of work ${step.powMs} ms)`;
    case 'waiting':
      return `registration: waiting for block ${step.height}`;
    case 'no-miner':
      return `registration: ${step.height === 0 ? 'the chain has no block after genesis' : `no new block for ${duration(step.idleMs)}`} — nobody seems to be mining it, and the registration waits in the pool until someone does. Start a miner for a registered address: umbra daemon … --mining-threads 1 --mining-address ADDRESS, or umbra miner --daemon-address HOST:PORT --wallet-address ADDRESS (docs/mining.md)`;
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
    /** How the wallet reads its state (its registration is read as its mode reads balances). */
    private readonly access: ChainAccess,
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
    const { topoheight } = await this.access.top();
    if ((await this.access.ownBalance(NATIVE_ASSET, topoheight)) === undefined) return false;
    return (this.registered = true);
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
    const height = (await this.daemon.getHeight()).height;
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
    await this.waitUntilMined(height);
  }

  /**
   * Waits for a block after height `sentAt` that holds the registration, saying each block it waits for — and, once
   * per block, when the newest block grows old, that nobody seems to be mining.
   */
  private async waitUntilMined(sentAt: number): Promise<void> {
    let height = sentAt;
    this.progress({ step: 'waiting', height: height + 1 });
    const stallMs = this.timing.stallMs ?? DEFAULT_STALL_MS;
    let newest = await this.newestBlockTime();
    let told = false;
    const started = Date.now();
    const deadline = started + this.timing.timeoutMs;
    while (Date.now() < deadline) {
      const idleMs = Date.now() - newest;
      if (!told && idleMs >= stallMs && Date.now() - started >= FIRST_JUDGEMENT_MS) {
        told = true;
        this.progress({ step: 'no-miner', height, idleMs });
      }
      await sleep(this.timing.pollMs);
      const now = (await this.daemon.getHeight()).height;
      if (now === height) continue;
      if (await this.isRegistered()) return;
      height = now;
      newest = await this.newestBlockTime();
      told = false;
      this.progress({ step: 'waiting', height: height + 1 });
    }
    throw new WalletError(
      WalletErrorCode.RegistrationTimeout,
      `the account's registration is not mined after ${Math.round(this.timing.timeoutMs / 1000)} s; it stays in the pool, retry later`,
    );
  }

  /** The timestamp (ms) of the daemon's newest block. */
  private async newestBlockTime(): Promise<number> {
    const { topoheight } = await this.daemon.getHeight();
    return (await this.daemon.blockHeaderByTopoHeight(topoheight)).timestamp;
  }
}
