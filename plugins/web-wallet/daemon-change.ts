/**
 * The settings page's change of daemon: each address given is checked by the wallet library before it is used (it
 * answers, it is on the wallet's network, and in the proven modes its headers extend the chain the wallet verified),
 * then the whole wallet process — sync, registration, sends and what they follow — moves to it without a restart. A
 * refused daemon leaves the old one in use, and the answer says why. The chosen addresses are kept for the next start.
 */
import { UmbraError } from '../../core-native/ts/errors.js';
import type { WalletService } from '../../wallet/wallet-service.js';
import { keepSettings } from './kept-settings.js';
import { WebWalletError, WebWalletErrorCode } from './web-wallet-error.js';

export interface DaemonChange {
  /** The sync daemon's new address (host:port or an http(s) URL); absent: unchanged. */
  daemon?: string;
  /** The send daemon's new address, for a wallet that has one of its own; absent: unchanged. */
  sendDaemon?: string;
}

function address(body: Record<string, unknown>, field: keyof DaemonChange): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '')
    throw new WebWalletError(WebWalletErrorCode.BadRequest, `${field} must be host:port or an http(s) URL`);
  return value.trim();
}

/** The change a request body asks for. */
export function daemonChange(body: Record<string, unknown>): DaemonChange {
  const daemon = address(body, 'daemon');
  const sendDaemon = address(body, 'sendDaemon');
  if (daemon === undefined && sendDaemon === undefined)
    throw new WebWalletError(WebWalletErrorCode.BadRequest, 'give the daemon or the send daemon to move to');
  return { ...(daemon && { daemon }), ...(sendDaemon && { sendDaemon }) };
}

async function move(wallet: WalletService, address: string, role: 'sync' | 'send'): Promise<void> {
  const current = (role === 'sync' ? wallet.daemon : wallet.sendDaemon).url;
  try {
    await wallet.moveToDaemon(address, role);
  } catch (error) {
    if (!(error instanceof UmbraError)) throw error;
    throw new WebWalletError(
      WebWalletErrorCode.DaemonRefused,
      `${address} is not used: ${error.message}. The wallet stays on ${current}.`,
    );
  }
}

/** Moves the wallet to the daemons `change` names, one after the other, and keeps each one accepted. */
export async function changeDaemons(wallet: WalletService, change: DaemonChange): Promise<void> {
  if (change.daemon !== undefined) {
    await move(wallet, change.daemon, 'sync');
    keepSettings(wallet.file, { daemon: change.daemon });
  }
  if (change.sendDaemon !== undefined) {
    await move(wallet, change.sendDaemon, 'send');
    keepSettings(wallet.file, { sendDaemon: change.sendDaemon });
  }
}
