/**
 * Permissions in the wallet file: saved and read back after the file is opened again, the rest of the contents kept,
 * and a stored record that is not a permission dropped.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { walletFilePermissions } from '../../../../plugins/web-wallet/dapp/permission-store.js';
import { WalletFile } from '../../../../wallet/wallet-file.js';

const TEST_SCRYPT = { N: 1 << 10, r: 8, p: 1 };

t.test('saved into the wallet file, beside what it holds', async (t) => {
  const path = join(mkdtempSync(join(tmpdir(), 'umbra-dapp-permissions-')), 'w.wallet');
  const file = await WalletFile.create(path, 'pw', { network: 'simulator', secret_key: 'kept' }, TEST_SCRYPT);
  t.same(walletFilePermissions(file).load(), [], 'none at first');
  const permission = { origin: 'https://lottery.example', name: 'Lottery', grantedAt: 1_700_000_000_000 };
  walletFilePermissions(file).save([permission]);
  const reopened = await WalletFile.open(path, 'pw');
  t.same(walletFilePermissions(reopened).load(), [permission]);
  t.match(reopened.contents, { network: 'simulator', secret_key: 'kept' }, 'the keys are untouched');

  reopened.save({ ...(reopened.contents as object), dapp_permissions: [permission, { origin: 7 }, 'x'] });
  t.same(walletFilePermissions(reopened).load(), [permission], 'what is not a permission is dropped');
  reopened.save({ ...(reopened.contents as object), dapp_permissions: 'all' });
  t.same(walletFilePermissions(reopened).load(), [], 'and a field that is not a list is none');
});
