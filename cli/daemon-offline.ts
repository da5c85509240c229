/** A daemon the command needs and cannot reach is one clear CLI failure (`cli.daemon-offline`), saying what to do. */
import { isDaemonUnreachable } from '../wallet/daemon-reachability.js';
import { CliError, CliErrorCode } from './cli-error.js';

export async function reachingDaemon<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isDaemonUnreachable(error))
      throw new CliError(
        CliErrorCode.DaemonOffline,
        `${(error as Error).message}; start the daemon, or name it with --daemon-address`,
      );
    throw error;
  }
}
