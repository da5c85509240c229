/**
 * Whether the daemon answers, as the wallet's background work finds out: `observe` is given every outcome (an error,
 * or none for a success) and `changed` hears only the transitions, so a daemon away for an hour is reported once when
 * it goes and once when it comes back, not on every attempt.
 */
import { UmbraError } from '../core-native/ts/errors.js';
import { DaemonClientErrorCode } from './daemon-client.js';
import { WalletErrorCode } from './wallet-error.js';

export type DaemonReachabilityChange = { reachable: false; reason: string } | { reachable: true };

/** Whether an error means the daemon could not be reached (as the daemon client or as a wallet operation says it). */
export const isDaemonUnreachable = (error: unknown): boolean =>
  UmbraError.is(error, DaemonClientErrorCode.Unavailable) || UmbraError.is(error, WalletErrorCode.DaemonOffline);

export class DaemonReachability {
  /** Unknown until the first outcome; the first outcome is a change only when the daemon is away. */
  private reachable?: boolean;

  constructor(private readonly changed: (change: DaemonReachabilityChange) => void) {}

  /** One outcome of a daemon call: `undefined` for a success, else its error (errors other than "unreachable" mean it answered). */
  observe(error?: unknown): void {
    const unreachable = error !== undefined && isDaemonUnreachable(error);
    if (unreachable) {
      if (this.reachable !== false) this.changed({ reachable: false, reason: (error as Error).message });
      this.reachable = false;
      return;
    }
    if (this.reachable === false) this.changed({ reachable: true });
    this.reachable = true;
  }
}
