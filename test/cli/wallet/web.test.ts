/**
 * `umbra wallet web`'s command line: flags that would serve the wallet beyond this machine without a login, or web
 * flags without --web, are refused before any password is read, without a stack trace; with --web-login every
 * request needs HTTP Basic auth, and the printed link opens the page once; the daemon chosen on the settings page
 * is used at the next start, unless --daemon-address names another.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { keepSettings } from '../../../plugins/web-wallet/kept-settings.js';
import { WalletFile } from '../../../wallet/wallet-file.js';
import { runCli, startCli } from '../../helpers/cli.js';
import { openWebSession } from '../../plugins/web-wallet/web-session.js';

const dir = mkdtempSync(join(tmpdir(), 'umbra-wallet-web-cli-'));
const file = join(dir, 'wallet.json');
const passwordFile = join(dir, 'password');
writeFileSync(passwordFile, 'pw\n');
const fileFlags = ['--wallet-file', file, '--password-file', passwordFile, '--network', 'simulator'];

t.before(async () => {
  const created = await runCli(['wallet', 'create', ...fileFlags]);
  if (created.code !== 0) throw new Error(created.stderr);
});

t.test('refused before the wallet is opened', async (t) => {
  for (const [args, message] of [
    [
      ['web', '--web-bind', '0.0.0.0:0'],
      /--web-bind 0\.0\.0\.0 is reachable from other machines: add --web-login user:pass/,
    ],
    [['web', '--web-bind', 'nowhere'], /--web-bind must be host:port/],
    [['web', '--web-login', 'nocolon'], /--web-login must be user:pass/],
    [['web', '--lock-minutes', '0'], /--lock-minutes must be a whole number from 1 to 1440/],
    [['open', '--web-bind', '127.0.0.1:0'], /configure the web wallet: add --web/],
    [['open', '--web', '--rpc-server'], /choose one/],
  ] as const) {
    // No password file: had the command asked for the password first, it would fail on the missing terminal.
    const run = await runCli(['wallet', ...args, '--wallet-file', file, '--network', 'simulator']);
    t.equal(run.code, 1, args.join(' '));
    t.match(run.stderr, message, args.join(' '));
    t.notMatch(run.stderr, /\n\s+at /, 'no stack trace');
  }
});

t.test('--web-login asks every request for the login', async (t) => {
  const web = startCli([
    'wallet',
    'open',
    '--web',
    ...fileFlags,
    '--daemon-address',
    '127.0.0.1:9',
    '--web-bind',
    '127.0.0.1:0',
    '--web-login',
    'alice:wonder land',
  ]);
  t.teardown(() => web.child.kill('SIGKILL'));
  const [, link] = await web.waitFor(
    /Web wallet: open (http:\/\/\S+) \(it asks for the --web-login user and password\)/,
  );
  const origin = new URL(link!).origin;
  const basic = { Authorization: `Basic ${Buffer.from('alice:wonder land').toString('base64')}` };
  t.equal((await fetch(link!, { redirect: 'manual' })).status, 401, 'the link alone is not enough');
  t.equal((await fetch(`${origin}/assets/app.js`)).status, 401, 'nor for the page files');
  const opened = await fetch(link!, { redirect: 'manual', headers: basic });
  t.equal(opened.status, 303);
  const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
  const page = await fetch(`${origin}/`, { headers: { ...basic, Cookie: cookie } });
  t.equal(page.status, 200);
  t.match(await page.text(), /<meta name="umbra-session" content="[\w-]+">/);
  t.equal((await fetch(link!, { redirect: 'manual', headers: basic })).status, 403, 'the link works once');
});

t.test('a wallet file that does not exist yet is restored through the page', async (t) => {
  const restored = join(dir, 'restored.json');
  const web = startCli([
    'wallet',
    'web',
    '--wallet-file',
    restored,
    '--network',
    'simulator',
    '--daemon-address',
    '127.0.0.1:9',
    '--web-bind',
    '127.0.0.1:0',
  ]);
  t.teardown(() => web.child.kill('SIGKILL'));
  const [, link] = await web.waitFor(/Web wallet: open (http:\/\/\S+) to create or restore the wallet/);
  const origin = new URL(link!).origin;
  const opened = await fetch(link!, { redirect: 'manual' });
  const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
  const session = /content="([\w-]+)"/.exec(
    await (await fetch(`${origin}/`, { headers: { Cookie: cookie } })).text(),
  )![1]!;
  const post = (path: string, body: unknown) =>
    fetch(`${origin}/api/${path}`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: origin, 'x-umbra-session': session },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
  t.same(await (await fetch(`${origin}/api/setup`, { headers: { Cookie: cookie } })).json(), {
    needed: true,
    network: 'simulator',
  });
  const wrong = await post('setup/restore', { words: 'topic install bacon', password: 'long enough' });
  t.equal(wrong.status, 400);
  t.match(wrong.body.error, /24 words/);
  const words =
    'topic install bacon fetch opinion hammer obscure year burst shy federal fortune shine duty enforce nation portion arch fashion timber pupil annual mention wonder';
  t.match((await post('setup/restore', { words, password: 'short' })).body.error, /at least 8 characters/);
  const done = await post('setup/restore', { words, password: 'long enough' });
  t.equal(done.status, 200);
  t.equal(done.body.address, 'umbt1qyk9nk20na7mgu6whzp8tnj2jk725dtspwzctg833v937jzqvn6suqghty4ql');
  t.ok(existsSync(restored), 'the wallet file is written');
  t.equal((await post('setup/restore', { words, password: 'long enough' })).status, 400, 'only once');
  t.equal((await post('unlock', { password: 'long enough' })).status, 200, 'its password opens it');
});

t.test('the daemon kept from the settings page is used, unless --daemon-address names another', async (t) => {
  keepSettings(await WalletFile.open(file, 'pw'), { daemon: '127.0.0.1:7' });
  for (const [flags, daemon] of [
    [[], 'http://127.0.0.1:7/json_rpc'],
    [['--daemon-address', '127.0.0.1:9'], 'http://127.0.0.1:9/json_rpc'],
  ] as const) {
    const web = startCli(['wallet', 'web', ...fileFlags, ...flags, '--web-bind', '127.0.0.1:0']);
    t.teardown(() => web.child.kill('SIGKILL'));
    const [, link] = await web.waitFor(/Web wallet: open (http:\/\/\S+)/);
    const { api } = await openWebSession(link!);
    t.equal((await api('settings')).body.daemon, daemon, flags.join(' ') || 'no flag');
  }
});
