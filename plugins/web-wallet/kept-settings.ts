/**
 * What the web wallet keeps for its next start, in the wallet file itself (its `web_wallet` field, sealed under the
 * wallet's password with the rest): the daemon and the send daemon chosen on the settings page, the default ring,
 * and the user's own labels for assets. A daemon flag given at start wins over the kept one (cli/wallet/web-server.ts).
 */
import type { WalletFile } from '../../wallet/wallet-file.js';

export interface KeptSettings {
  daemon?: string;
  sendDaemon?: string;
  ring?: number;
  /** The user's labels for assets, by SCID. */
  labels: Record<string, string>;
}

/** The field as stored: snake_case, like the file's other fields. */
interface StoredSettings {
  daemon?: unknown;
  send_daemon?: unknown;
  ring?: unknown;
  asset_labels?: unknown;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The kept settings in a wallet file's contents; a field of the wrong kind is dropped rather than trusted. */
export function readKeptSettings(contents: unknown): KeptSettings {
  const stored = ((contents as { web_wallet?: StoredSettings } | null)?.web_wallet ?? {}) as StoredSettings;
  const labels =
    typeof stored.asset_labels === 'object' && stored.asset_labels !== null && !Array.isArray(stored.asset_labels)
      ? Object.fromEntries(Object.entries(stored.asset_labels).filter(([, label]) => text(label) !== undefined))
      : {};
  const daemon = text(stored.daemon);
  const sendDaemon = text(stored.send_daemon);
  return {
    ...(daemon && { daemon }),
    ...(sendDaemon && { sendDaemon }),
    ...(Number.isSafeInteger(stored.ring) ? { ring: stored.ring as number } : {}),
    labels: labels as Record<string, string>,
  };
}

/** Changes the kept settings of the open wallet `file` (none: a wallet without a file keeps nothing). */
export function keepSettings(file: WalletFile | undefined, change: Partial<KeptSettings>): void {
  if (!file) return;
  const { daemon, sendDaemon, ring, labels } = { ...readKeptSettings(file.contents), ...change };
  const stored: StoredSettings = {
    ...(daemon && { daemon }),
    ...(sendDaemon && { send_daemon: sendDaemon }),
    ...(ring === undefined ? {} : { ring }),
    asset_labels: labels,
  };
  file.save({ ...(file.contents as object), web_wallet: stored });
}
