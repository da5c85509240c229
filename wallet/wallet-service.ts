/**
 * The wallet as its RPC methods and the CLI see it: its keys, its daemon, its registration, its transfers and their
 * history (kept up to date by the history sync, in the background and before GetTransfers/GetBalance answer, and
 * stored with the sync position in the wallet file when there is one), and what it has learnt from the daemon (the
 * chain height, and its balances). It composes the parts, which share only the wallet's context (wallet-context.ts).
 */
import type { Core } from '../core-native/ts/core.js';
import { AccountRegistration, type RegistrationStep, type RegistrationTiming } from './account-registration.js';
import type { AccessStatus, ChainAccess } from './chain-access/chain-access.js';
import { DaemonAccess } from './chain-access/daemon-access.js';
import { DaemonClient, DaemonUnavailableError } from './daemon-client.js';
import { resolveDestination, type Destination } from './destination.js';
import { DaemonReachability, type DaemonReachabilityChange } from './daemon-reachability.js';
import { HistorySync, type SyncPosition } from './history-sync.js';
import { OwnBalances } from './own-balances.js';
import { TransferHistory } from './transfer-history.js';
import { TransferSender } from './transfer-sender.js';
import { ACCOUNT_UNREGISTERED, NATIVE_ASSET } from './wallet-constants.js';
import { walletContext, type WalletContext } from './wallet-context.js';
import { daemonFailure, WalletError, WalletErrorCode } from './wallet-error.js';
import type { WalletFile } from './wallet-file.js';
import type { WalletKeys } from './wallet-keys.js';

export interface WalletServiceOptions {
  core: Core;
  keys: WalletKeys;
  daemon: DaemonClient;
  /**
   * The daemon to send through (WalletContext.sendDaemon): the wallet's transactions, and all it asks while building
   * and following them, go there instead of to `daemon` (default: `daemon`).
   */
  sendDaemon?: DaemonClient;
  /**
   * How the wallet reads the chain (chain-access/): the command line's wallets read privately, with proofs
   * (ProvenAccess); without this the daemon's answers are taken as they come (DaemonAccess: the simulator's wallets).
   */
  access?: ChainAccess;
  /** Where the balance-decoding table is cached. */
  balanceTableDir: string;
  /** How the wallet waits for its registration to be mined (default: poll every second, up to 10 minutes). */
  registrationTiming?: RegistrationTiming;
  /** The open wallet file: the history and the sync position are read from it and saved to it (beside the keys). */
  file?: WalletFile;
  /** Called while a sync reads blocks (e.g. a progress line on the terminal). */
  syncProgress?: (done: number, total: number) => void;
  /** Called at each step of the account's registration (proof of work, sent, waiting for a block). */
  registrationProgress?: (step: RegistrationStep) => void;
  /** Called when the background sync finds the daemon gone, and when it answers again. */
  daemonReachability?: (change: DaemonReachabilityChange) => void;
}

/** A sync that reached the daemon's top: the topoheight it reached and how long it took. */
export interface CompletedSync {
  topoheight: number;
  seconds: number;
}

/** The wallet file's `history` field. */
interface StoredHistory {
  position?: SyncPosition;
  /** The followed tokens and their sync positions (null before their first sync). */
  tokens?: Record<string, SyncPosition | null>;
  entries: unknown;
  /** What the wallet's mode keeps between runs (ChainAccess.saved). */
  access?: unknown;
}

export class WalletService {
  private readonly context: WalletContext;
  readonly registration: AccountRegistration;
  readonly history = new TransferHistory();
  readonly transfers: TransferSender;
  readonly historySync: HistorySync;
  private readonly balances: OwnBalances;
  /** The open wallet file, when there is one (other parts of the process keep their fields in it too). */
  readonly file?: WalletFile;
  private background?: { timer?: NodeJS.Timeout; stopped: boolean };
  private readonly reachability?: DaemonReachability;
  private knownHeight = 0;
  private readonly syncListeners = new Set<(sync: CompletedSync) => void>();

  constructor(options: WalletServiceOptions) {
    const access = options.access ?? new DaemonAccess(options.daemon, options.keys.address);
    const { core, keys, daemon, balanceTableDir, sendDaemon } = options;
    this.context = walletContext(core, keys, daemon, access, balanceTableDir, sendDaemon);
    this.balances = new OwnBalances(this.context.decoder, options.keys.secretKey);
    this.registration = new AccountRegistration(
      options.core,
      options.keys,
      this.context.sendDaemon,
      access,
      options.registrationTiming,
      options.registrationProgress,
    );
    if (options.daemonReachability) this.reachability = new DaemonReachability(options.daemonReachability);
    this.file = options.file;
    this.historySync = new HistorySync(this.context, this.history, {
      save: () => this.persist(),
      progress: options.syncProgress,
    });
    this.transfers = new TransferSender(this.context, {
      registration: this.registration,
      history: this.history,
      balances: this.balances,
      onSent: (assets) => {
        for (const scid of assets) this.historySync.follow(scid);
        this.persist();
      },
    });
    const stored = (options.file?.contents as { history?: StoredHistory } | undefined)?.history;
    if (stored) {
      this.history.load(stored.entries);
      this.historySync.position = stored.position;
      this.historySync.loadTokens(stored.tokens);
    }
  }

  /** Writes the history and the sync position into the wallet file (atomically), when the wallet has one. */
  persist(): void {
    if (!this.file) return;
    const access = this.context.access.saved();
    const history: StoredHistory = {
      ...(this.historySync.position ? { position: this.historySync.position } : {}),
      tokens: this.historySync.tokensToJSON(),
      entries: this.history.toJSON(),
      ...(access === undefined ? {} : { access }),
    };
    this.file.save({ ...(this.file.contents as object), history });
  }

  /** Reads the chain from where the history sync stopped to the top (an unregistered account has nothing to read). */
  async sync(): Promise<void> {
    const started = performance.now();
    let topoheight: number;
    try {
      topoheight = await this.historySync.run();
    } catch (error) {
      throw daemonFailure(error);
    }
    const done: CompletedSync = { topoheight, seconds: (performance.now() - started) / 1000 };
    for (const listener of this.syncListeners) listener(done);
  }

  /** Calls `listener` (which must not throw) after each sync that reached the daemon's top; returns the unsubscribe. */
  onSynced(listener: (sync: CompletedSync) => void): () => void {
    this.syncListeners.add(listener);
    return () => this.syncListeners.delete(listener);
  }

  /**
   * Syncs now and then every `intervalMs` until `stopSync`; failures (a daemon away) wait for the next round. The
   * rounds tell `daemonReachability` when the daemon goes away and when it comes back.
   */
  startSync(intervalMs = 5000, onError?: (error: unknown) => void): void {
    if (this.background) return;
    const state: { timer?: NodeJS.Timeout; stopped: boolean } = { stopped: false };
    this.background = state;
    const round = (): void => {
      this.sync()
        .then(
          () => this.reachability?.observe(),
          (error: unknown) => {
            this.reachability?.observe(error);
            onError?.(error);
          },
        )
        .finally(() => {
          if (!state.stopped) {
            state.timer = setTimeout(round, intervalMs);
            state.timer.unref();
          }
        });
    };
    round();
  }

  stopSync(): void {
    if (!this.background) return;
    this.background.stopped = true;
    clearTimeout(this.background.timer);
    this.background = undefined;
  }

  /**
   * When the wallet closes: stops the background sync, a registration's proof of work in progress and what its mode
   * runs (the header checks' threads).
   */
  close(): void {
    this.stopSync();
    this.registration.close();
    void this.context.access.close();
  }

  /**
   * How the wallet reads the chain — its mode, its daemon, its privacy set and the last height it verified — and the
   * daemon it sends through.
   */
  status(): AccessStatus & { sendDaemon: string } {
    return { ...this.context.access.status(), sendDaemon: this.context.sendDaemon.url };
  }

  get keys(): WalletKeys {
    return this.context.keys;
  }

  get daemon(): DaemonClient {
    return this.context.daemon;
  }

  /** The daemon the wallet sends through (WalletContext.sendDaemon). */
  get sendDaemon(): DaemonClient {
    return this.context.sendDaemon;
  }

  get address(): string {
    return this.keys.address;
  }

  /** Whether the wallet sends through a daemon of its own rather than its sync daemon (WalletContext.sendDaemon). */
  get hasSendDaemon(): boolean {
    return this.context.sendDaemon !== this.context.daemon;
  }

  /**
   * Moves the wallet to the daemon at `address` (`send`: the daemon it sends through, when it has one of its own)
   * once that daemon answers, is on the wallet's network and passes its mode's check (ChainAccess.checkDaemon); a
   * refusal throws and leaves the wallet where it was. The background sync, the registration and the transactions
   * being followed all go on with the new daemon.
   */
  async moveToDaemon(address: string, role: 'sync' | 'send' = 'sync'): Promise<void> {
    if (role === 'send' && !this.hasSendDaemon)
      throw new WalletError(
        WalletErrorCode.NoSendDaemon,
        'the wallet sends through its sync daemon: it has no daemon of its own to send through',
      );
    const candidate = new DaemonClient(address);
    let network: string;
    try {
      network = (await candidate.getInfo()).network;
    } catch (error) {
      throw daemonFailure(error);
    }
    if (network !== this.keys.network)
      throw new WalletError(
        WalletErrorCode.WrongNetwork,
        `the daemon at ${candidate.url} is on ${network === undefined ? 'an unnamed network' : network}, not ${this.keys.network}`,
      );
    try {
      await this.context.access.checkDaemon(candidate);
    } catch (error) {
      throw daemonFailure(error);
    }
    (role === 'send' ? this.context.sendDaemon : this.context.daemon).moveTo(candidate);
  }

  /** Where a destination (address, integrated address or registered name) goes, as a transfer would resolve it. */
  resolve(destination: string): Promise<Destination> {
    return resolveDestination(this.context, destination);
  }

  /**
   * The chain's height as the wallet accepts it (verified, in the proven modes), asked afresh; while the daemon cannot
   * be reached, the last height it told (0 before).
   */
  async height(): Promise<number> {
    try {
      this.knownHeight = (await this.context.access.top()).height;
    } catch (error) {
      if (!(error instanceof DaemonUnavailableError)) throw daemonFailure(error);
    }
    return this.knownHeight;
  }

  /** A contract's String variable under a String key at the top, as UTF-8 text, read as the wallet's mode reads. */
  async contractText(scid: string, key: string): Promise<string | undefined> {
    try {
      return await this.context.access.contractText(scid, key);
    } catch (error) {
      throw daemonFailure(error);
    }
  }

  /** The wallet's balance of an asset (64-hex SCID) at the chain's top, read as its mode reads (proven, or not). */
  async balance(scid = NATIVE_ASSET): Promise<bigint> {
    this.historySync.follow(scid);
    let data: string | undefined;
    try {
      const top = await this.context.access.top();
      this.knownHeight = top.height;
      data = await this.context.access.ownBalance(scid, top.topoheight);
    } catch (error) {
      throw daemonFailure(error);
    }
    // No entry in a token's tree means the account never held the token: a zero balance, not a missing account.
    if (data === undefined && scid !== NATIVE_ASSET) return 0n;
    if (data === undefined) throw new WalletError(WalletErrorCode.AccountUnregistered, ACCOUNT_UNREGISTERED);
    return this.balances.amount(scid, data);
  }
}

// The kernel's service list knows nothing of the wallet; the wallet adds itself to it, as a layer above does.
declare module '../host/services/services.js' {
  interface Services {
    /** The open wallet `umbra wallet open --rpc-server` hands to the `wallet` plugin (ComposeOptions.services). */
    wallet: WalletService;
  }
}
