/**
 * Where the origins the user let in are kept, so that they survive a restart: in the wallet file itself, beside the
 * keys and the history (its `dapp_permissions` field), sealed under the wallet's password like the rest.
 */
import type { WalletFile } from '../../../wallet/wallet-file.js';
import type { DappPermission } from './approvals.js';

export interface DappPermissionStore {
  load(): DappPermission[];
  save(permissions: readonly DappPermission[]): void;
}

const isPermission = (value: unknown): value is DappPermission => {
  const record = value as Partial<Record<keyof DappPermission, unknown>> | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.origin === 'string' &&
    typeof record.name === 'string' &&
    Number.isSafeInteger(record.grantedAt)
  );
};

/**
 * The permissions kept in the open wallet file — the same WalletFile the WalletService saves its history to, so that
 * each write keeps the other's field. A stored record that is not a permission is dropped rather than trusted.
 */
export function walletFilePermissions(file: WalletFile): DappPermissionStore {
  return {
    load() {
      const stored = (file.contents as { dapp_permissions?: unknown }).dapp_permissions;
      return Array.isArray(stored) ? stored.filter(isPermission) : [];
    },
    save(permissions) {
      file.save({ ...(file.contents as object), dapp_permissions: [...permissions] });
    },
  };
}
