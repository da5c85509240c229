/**
 * The wallet as its RPC methods and the CLI see it: its keys, its daemon, and what it has learnt from the daemon
 * (the chain height, and per asset the balance with the encrypted form it was decoded from, so that an unchanged
 * balance is not decoded twice). Sync, history and transfers build on it.
 */
import type { Core } from '../../core-native/ts/core.js';
import { NETWORKS } from '../../host/protocol/network.js';
import { BalanceDecoder } from './balance-decoder.js';
import { DaemonRpcError, DaemonUnavailableError, type DaemonClient, type EncryptedBalanceRecord } from './daemon-client.js';
import { WalletError } from './wallet-error.js';
import type { WalletKeys } from './wallet-keys.js';

/** The SCID of the native coin. */
export const NATIVE_ASSET = '0'.repeat(64);
/** The daemon's (and so the wallet's) answer for an account without a balance entry. */
export const ACCOUNT_UNREGISTERED = 'Account Unregistered';

export interface WalletServiceOptions {
  core: Core;
  keys: WalletKeys;
  daemon: DaemonClient;
  /** Where the balance-decoding table is cached. */
  balanceTableDir: string;
}

export class WalletService {
  readonly keys: WalletKeys;
  readonly daemon: DaemonClient;
  private readonly decoder: BalanceDecoder;
  private readonly balances = new Map<string, { data: string; amount: bigint }>();
  private knownHeight = 0;

  constructor(options: WalletServiceOptions) {
    this.keys = options.keys;
    this.daemon = options.daemon;
    const { G } = options.core.generators(NETWORKS[options.keys.network].generatorDomain);
    this.decoder = new BalanceDecoder(options.core, G, options.balanceTableDir);
  }

  get address(): string {
    return this.keys.address;
  }

  /** The daemon's chain height, asked afresh; while the daemon cannot be reached, the last height it told (0 before). */
  async height(): Promise<number> {
    try {
      this.knownHeight = (await this.daemon.getHeight()).height;
    } catch (error) {
      if (!(error instanceof DaemonUnavailableError)) throw this.daemonFailure(error);
    }
    return this.knownHeight;
  }

  /** The wallet's balance of an asset (64-hex SCID) at the daemon's latest block. */
  async balance(scid = NATIVE_ASSET): Promise<bigint> {
    let record: EncryptedBalanceRecord;
    try {
      record = await this.daemon.getEncryptedBalance(this.address, scid);
    } catch (error) {
      if (error instanceof DaemonRpcError && error.message === ACCOUNT_UNREGISTERED) {
        // No entry in a token's tree means the account never held the token: a zero balance, not a missing account.
        if (scid !== NATIVE_ASSET) return 0n;
        throw new WalletError(ACCOUNT_UNREGISTERED);
      }
      throw this.daemonFailure(error);
    }
    this.knownHeight = record.height;
    const cached = this.balances.get(scid);
    if (cached?.data === record.data) return cached.amount;
    // The previous amount is the first guess: being a ring member re-encrypts a balance without changing it.
    const amount = this.decoder.decode(record.data, this.keys.secretKey, cached?.amount);
    this.balances.set(scid, { data: record.data, amount });
    return amount;
  }

  private daemonFailure(error: unknown): unknown {
    if (error instanceof DaemonUnavailableError) return new WalletError(`Daemon is offline (${error.message})`);
    if (error instanceof DaemonRpcError) return new WalletError(`the daemon refused the request: ${error.message}`);
    return error;
  }
}
