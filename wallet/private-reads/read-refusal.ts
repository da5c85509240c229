/**
 * How a proven read fails, as the wallet's user sees it: always naming the daemon, and what it was asked for, so a
 * lying or unreachable daemon is told apart from a wallet that has not verified the state it asks about.
 */
import { DaemonClientErrorCode, DaemonRpcError } from '../daemon-client.js';
import { daemonFailure, WalletError, WalletErrorCode } from '../wallet-error.js';

/** The daemon's answer does not prove `what`; `why` is the check that failed. */
export function proofRefused(url: string, what: string, why: string, cause?: unknown): WalletError {
  return new WalletError(WalletErrorCode.ProofRefused, `the daemon at ${url} did not prove ${what}: ${why}`, {
    ...(cause === undefined ? {} : { cause }),
  });
}

/** A read at a topoheight the wallet's header chain does not hold. */
export function stateNotVerified(url: string, topoheight: bigint): WalletError {
  return new WalletError(
    WalletErrorCode.StateNotVerified,
    `no verified header at topoheight ${topoheight}: sync the header chain from the daemon at ${url} first`,
  );
}

/** A daemon that refused a proven-read method, or could not be reached, as a WalletError naming it. */
export function readFailure(url: string, method: string, error: unknown): unknown {
  if (error instanceof DaemonRpcError && error.code === DaemonClientErrorCode.Unsupported)
    return new WalletError(
      WalletErrorCode.DaemonRefused,
      `the daemon at ${url} does not offer ${method} (an Umbra extension), so nothing it says can be proven`,
      { cause: error },
    );
  if (error instanceof DaemonRpcError)
    return new WalletError(WalletErrorCode.DaemonRefused, `the daemon at ${url} refused ${method}: ${error.message}`, {
      cause: error,
    });
  return daemonFailure(error);
}
