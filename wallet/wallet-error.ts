/** Errors of wallet operations as the user sees them. */
import { DaemonRpcError, DaemonUnavailableError } from './daemon-client.js';

/** A wallet operation that cannot be done; the message is what the user sees (RPC: -32098 with this message). */
export class WalletError extends Error {
  override readonly name = 'WalletError';
}

/** A daemon failure as a WalletError (`Daemon is offline …`, or the daemon's refusal); other errors unchanged. */
export function daemonFailure(error: unknown): unknown {
  if (error instanceof DaemonUnavailableError) return new WalletError(`Daemon is offline (${error.message})`);
  if (error instanceof DaemonRpcError) return new WalletError(`the daemon refused the request: ${error.message}`);
  return error;
}
