/**
 * `wallet status`: how the wallet reads the chain — its mode, the privacy set its state is read among, the daemon and
 * the height of the header chain it has verified (checked up to the daemon's top first).
 */
import { headerFilePath } from '../../wallet/light-client/header-file.js';
import { labelled } from './output.js';
import type { WalletSession } from './session.js';

export interface StatusResult {
  mode: string;
  /** Accounts the wallet's state is read among (private mode); null in the other modes. */
  privacy_set: number | null;
  daemon: string;
  /** The daemon the wallet sends through (the same unless --send-daemon). */
  send_daemon: string;
  verified_height: number | null;
  /** The file the verified header chain is kept in (the proven modes). */
  header_file: string | null;
}

const MODE_TEXT: Record<string, string> = {
  private: 'private (proven reads; the daemon is not told the account)',
  trusted: 'trusted daemon (proven reads, asked by address)',
  fast: 'fast (the daemon is believed)',
};

export async function status(session: WalletSession): Promise<StatusResult> {
  await session.wallet.height();
  const { mode, privacySet, daemon, sendDaemon, verifiedHeight } = session.wallet.status();
  return {
    mode,
    privacy_set: privacySet,
    daemon,
    send_daemon: sendDaemon,
    verified_height: verifiedHeight,
    header_file: mode === 'fast' ? null : headerFilePath(session.walletFile),
  };
}

export const statusText = (result: StatusResult): string =>
  labelled([
    ['mode', MODE_TEXT[result.mode] ?? result.mode],
    ['privacy set', result.privacy_set === null ? '—' : `at least ${result.privacy_set} accounts`],
    ['daemon', result.daemon],
    [
      'sends through',
      result.send_daemon === result.daemon
        ? `the same daemon${result.mode === 'private' ? ', which can tell your transactions apart (see --send-daemon)' : ''}`
        : result.send_daemon,
    ],
    ['verified height', result.verified_height === null ? '—' : String(result.verified_height)],
    ...(result.header_file === null ? [] : [['header chain', result.header_file] as [string, string]]),
  ]);
