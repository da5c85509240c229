/** The wallet shell's history file: saved oldest first, bounded, owner-only, read back newest first. */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { historyFileOf, loadShellHistory, saveShellHistory } from '../../../cli/wallet/shell-history.js';

const dir = mkdtempSync(join(tmpdir(), 'umbra-shell-history-'));

t.test('the file sits next to the wallet', async (t) => {
  t.equal(historyFileOf('/home/me/my.wallet'), '/home/me/my.wallet.history');
});

t.test('no file yet: no history', async (t) => {
  t.same(loadShellHistory(join(dir, 'none.history')), []);
});

t.test('saved oldest first with mode 0600, loaded newest first', async (t) => {
  const path = join(dir, 'a.history');
  saveShellHistory(path, ['send x 1', 'balance', 'address']);
  t.equal(readFileSync(path, 'utf8'), 'address\nbalance\nsend x 1\n');
  t.equal(statSync(path).mode & 0o777, 0o600);
  t.same(loadShellHistory(path), ['send x 1', 'balance', 'address']);
});

t.test('an existing file with a looser mode is made owner-only', async (t) => {
  const path = join(dir, 'b.history');
  writeFileSync(path, 'old\n', { mode: 0o644 });
  saveShellHistory(path, ['new']);
  t.equal(statSync(path).mode & 0o777, 0o600);
  t.equal(readFileSync(path, 'utf8'), 'new\n');
});

t.test('only the newest lines are kept, on save and on load', async (t) => {
  const path = join(dir, 'c.history');
  saveShellHistory(path, ['5', '4', '3', '2', '1'], 3);
  t.equal(readFileSync(path, 'utf8'), '3\n4\n5\n');
  t.same(loadShellHistory(path, 2), ['5', '4']);
});

t.test('an unreadable history is a clear error', async (t) => {
  t.throws(() => loadShellHistory(dir), {
    code: 'cli.unreadable-file',
    message: /cannot read the shell history .*EISDIR/,
  });
});
