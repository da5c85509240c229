/** `umbra wallet create|restore|open` through the real CLI, against a real simulator daemon. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { encodeAddress } from '../../protocol/address.js';
import { CHAIN_PARAMS } from '../../protocol/chain-params.js';
import { mnemonicToSecretKey, secretKeyToMnemonic } from '../../protocol/mnemonic.js';
import { premineKey, premineSecret } from '../../protocol/premine.js';
import { walletKeys } from '../../wallet/wallet-keys.js';
import { mineOneViaRpc, postRpc } from '../helpers/app.js';
import { runCli, startCli, walletFlags } from '../helpers/cli.js';

const core = await loadCore();
const dir = mkdtempSync(join(tmpdir(), 'umbra-wallet-cli-'));
const passwordFile = join(dir, 'password');
writeFileSync(passwordFile, 'open sesame\n');
// The CLI caches its balance table under $HOME/.umbra: keep the test's out of the real home.
const env = { HOME: dir };
const wallet = (args: string[], stdin?: string) => runCli(['wallet', ...args], stdin, 60_000, env);

/** A loopback port nothing listens on (it was free a moment ago). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

t.test('create prints the address and mnemonic once and never overwrites a wallet', async (t) => {
  const file = join(dir, 'new.json');
  const created = await wallet([
    'create',
    '--wallet-file',
    file,
    '--password-file',
    passwordFile,
    '--testnet',
    '--json',
  ]);
  t.equal(created.code, 0, created.stderr);
  const result = JSON.parse(created.stdout);
  t.same(Object.keys(result).sort(), ['address', 'mnemonic', 'network', 'wallet_file']);
  t.equal(result.network, 'testnet');
  t.equal(
    result.address,
    walletKeys(core, 'testnet', mnemonicToSecretKey(result.mnemonic)).address,
    'the words are the address’s keys',
  );
  t.notOk(readFileSync(file, 'utf8').includes(result.mnemonic), 'the file is encrypted');

  const again = await wallet(['create', '--wallet-file', file, '--password-file', passwordFile]);
  t.equal(again.code, 1);
  t.match(again.stderr, /already exists; a new wallet never replaces a file/);

  const text = await wallet(['create', '--wallet-file', join(dir, 'text.json'), '--password-file', passwordFile]);
  t.match(text.stdout, /^network: +mainnet$/m, 'mainnet unless told');
  t.match(text.stdout, /^address: +umb1/m);
  t.match(text.stdout, /^mnemonic: +(\w+ ){23}\w+$/m);
  t.match(text.stdout, /Write the 24 words down/);
});

t.test('clear errors: wrong password, no terminal, bad words, wrong network, flags', async (t) => {
  const file = join(dir, 'errors.json');
  t.equal(
    (await wallet(['create', '--wallet-file', file, '--password-file', passwordFile, '--network', 'simulator'])).code,
    0,
  );
  const wrong = join(dir, 'wrong');
  writeFileSync(wrong, 'open barley');
  const cases: [string[], RegExp][] = [
    [
      ['open', '--wallet-file', file, '--password-file', wrong],
      /^umbra: wrong password for wallet file .*errors\.json/,
    ],
    [['open', '--wallet-file', file], /^umbra: no terminal to ask for the wallet password on: give --password-file/],
    [
      ['open', '--wallet-file', join(dir, 'missing.json'), '--password-file', passwordFile],
      /wallet file .*missing\.json does not exist/,
    ],
    [
      ['open', '--wallet-file', file, '--password-file', join(dir, 'nope')],
      /cannot read the password file .*nope: ENOENT/,
    ],
    [
      ['open', '--wallet-file', file, '--password-file', passwordFile, '--testnet'],
      /errors\.json is a simulator wallet, not testnet/,
    ],
    [['open', '--wallet-file', file, '--password-file', passwordFile, '--rpc-bind', '127.0.0.1:0'], /add --rpc-server/],
    [
      ['open', '--wallet-file', file, '--password-file', passwordFile, '--daemon-address', 'http://[oops'],
      /daemon address must be host:port or an http\(s\) URL/,
    ],
    [
      ['open', '--wallet-file', file, '--password-file', passwordFile, '--rpc-server', '--rpc-login', 'nocolon'],
      /'rpcLogin' must be user:pass/,
    ],
    [
      [
        'restore',
        '--wallet-file',
        join(dir, 'r.json'),
        '--password-file',
        passwordFile,
        '--mnemonic-file',
        passwordFile,
      ],
      /a mnemonic has 24 words, got 2/,
    ],
    [
      ['restore', '--wallet-file', join(dir, 'r.json'), '--password-file', passwordFile],
      /no terminal to ask for the seed words \(24\) on: give --mnemonic-file/,
    ],
    [['create', '--password-file', passwordFile], /required option '--wallet-file <path>' not specified/],
  ];
  for (const [args, message] of cases) {
    const run = await wallet(args);
    t.not(run.code, 0, args.join(' '));
    t.match(run.stderr, message, args.join(' '));
    t.notMatch(run.stderr, /\n\s+at /, 'no stack trace');
  }
  t.notOk(existsSync(join(dir, 'r.json')), 'a failed restore writes no file');
});

t.test('restore, then open against a daemon: summary, and the RPC server until SIGTERM', async (t) => {
  const daemon = startCli(['daemon', '--network', 'simulator', '--store', 'memory', '--rpc-bind', '127.0.0.1:0'], env);
  t.teardown(() => daemon.child.kill('SIGKILL'));
  const [, daemonUrl] = await daemon.waitFor(/daemon RPC listening on (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/);
  const premineAddress = encodeAddress('simulator', premineKey(core, 'simulator'));

  const file = join(dir, 'premine.json');
  const wordsFile = join(dir, 'words');
  writeFileSync(wordsFile, `${secretKeyToMnemonic(premineSecret(core, 'simulator'))}\n`);
  const restored = await wallet([
    'restore',
    '--wallet-file',
    file,
    '--password-file',
    passwordFile,
    '--mnemonic-file',
    wordsFile,
    '--network',
    'simulator',
  ]);
  t.equal(restored.code, 0, restored.stderr);
  t.match(restored.stdout, new RegExp(`^address: +${premineAddress}$`, 'm'));
  t.notMatch(restored.stdout, /mnemonic/, 'restore does not print the words back');

  const summary = await wallet([
    'open',
    ...walletFlags(file, passwordFile, daemonUrl!.replace('http://', '')),
    '--json',
  ]);
  t.equal(summary.code, 0, summary.stderr);
  t.same(JSON.parse(summary.stdout), {
    wallet_file: file,
    network: 'simulator',
    address: premineAddress,
    daemon: `${daemonUrl}/json_rpc`,
    height: 0,
    balance: Number(CHAIN_PARAMS.simulator.premineAmount),
  });
  const text = await wallet(['open', ...walletFlags(file, passwordFile, daemonUrl!)]);
  t.match(text.stdout, /^balance: +20000000\.00000 UMB \(2000000000000 atomic units\)$/m);

  const server = startCli(
    [
      'wallet',
      'open',
      ...walletFlags(file, passwordFile, daemonUrl!),
      '--rpc-server',
      '--rpc-bind',
      '127.0.0.1:0',
      '--rpc-login',
      'me:pw',
    ],
    env,
  );
  t.teardown(() => server.child.kill('SIGKILL'));
  const [, walletUrl] = await server.waitFor(/wallet RPC listening on (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/);
  const auth = { Authorization: `Basic ${Buffer.from('me:pw').toString('base64')}` };
  t.equal(
    (await postRpc(walletUrl!, { jsonrpc: '2.0', id: 1, method: 'GetAddress' })).status,
    401,
    'the login is required',
  );
  t.same((await postRpc(walletUrl!, { jsonrpc: '2.0', id: 1, method: 'GetAddress' }, auth)).json.result, {
    address: premineAddress,
  });
  t.same(
    (await postRpc(walletUrl!, { jsonrpc: '2.0', id: 2, method: 'GetBalance' }, auth)).json.result.balance,
    Number(CHAIN_PARAMS.simulator.premineAmount),
  );
  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0, 'SIGTERM stops the wallet server cleanly');
});

t.test(
  'an unreachable daemon: open fails naming it; the RPC server says so, and registers when it comes back',
  async (t) => {
    const port = await freePort();
    const file = join(dir, 'away.json');
    const created = await wallet([
      'create',
      '--wallet-file',
      file,
      '--password-file',
      passwordFile,
      '--network',
      'simulator',
    ]);
    t.equal(created.code, 0, created.stderr);
    const address = /^address: +(\S+)$/m.exec(created.stdout)![1]!;
    const daemonAddress = `127.0.0.1:${port}`;

    const open = await wallet(['open', ...walletFlags(file, passwordFile, daemonAddress)]);
    t.equal(open.code, 1, 'open exits non-zero');
    t.match(
      open.stderr,
      `umbra: Daemon is offline (cannot reach the daemon at http://${daemonAddress}/json_rpc: ECONNREFUSED); start the daemon, or name it with --daemon-address`,
    );
    t.notMatch(open.stderr, /\n\s+at /, 'no stack trace');
    t.equal(open.stdout, '', 'no summary');

    const server = startCli(
      [
        'wallet',
        'open',
        ...walletFlags(file, passwordFile, daemonAddress),
        '--rpc-server',
        '--rpc-bind',
        '127.0.0.1:0',
      ],
      env,
    );
    t.teardown(() => server.child.kill('SIGKILL'));
    await server.waitFor(/cannot reach the daemon at \S+: ECONNREFUSED\); the wallet retries every 5 s/);
    t.notMatch(server.log(), /not registered/, 'an unreachable daemon is not an unregistered account');

    const daemon = startCli(
      ['daemon', '--network', 'simulator', '--store', 'memory', '--rpc-bind', daemonAddress],
      env,
    );
    t.teardown(() => daemon.child.kill('SIGKILL'));
    await daemon.waitFor(/daemon RPC listening/);
    await server.waitFor(new RegExp(`the daemon at http://${daemonAddress}/json_rpc answers again`), 15_000);
    await server.waitFor(/registration: computing the proof of work \(0 leading zero bits\)/);
    await server.waitFor(/registration: sent [0-9a-f]{64} \(proof of work \d+ ms\)/);
    await server.waitFor(/registration: waiting for block 1/);
    await mineOneViaRpc(`http://${daemonAddress}`, encodeAddress('simulator', premineKey(core, 'simulator')));
    await server.waitFor(/the account is registered on chain/);
    t.equal(server.log().match(/cannot reach the daemon/g)?.length, 1, 'the daemon away is logged once');
    t.match(server.log(), `Umbra wallet ${address} on simulator`, 'the new wallet was served');
    server.child.kill('SIGTERM');
    t.equal(await server.exited, 0);
  },
);

t.test('--help documents the flags', async (t) => {
  const open = await runCli(['wallet', 'open', '--help']);
  for (const flag of [
    '--wallet-file',
    '--password-file',
    '--network',
    '--testnet',
    '--daemon-address',
    '--rpc-server',
    '--rpc-bind',
    '--rpc-login',
  ])
    t.match(open.stdout, flag, `open documents ${flag}`);
  t.match((await runCli(['wallet', 'restore', '--help'])).stdout, '--mnemonic-file');
  t.match((await runCli(['--help'])).stdout, /wallet/);
  // Every amount says how it is written, as everywhere on the command line.
  const how = /coins with up to 5 decimals \(1\.5\) or atomic units with a u suffix \(150000u\)/;
  const flat = async (...args: string[]): Promise<string> => (await runCli(args)).stdout.replace(/\s+/g, ' ');
  t.match(await flat('wallet', 'send', '--help'), new RegExp(`amount ${how.source}`));
  const call = await flat('wallet', 'call', '--help');
  t.match(call, new RegExp(`--deposit <amount> coins to deposit into the contract: ${how.source}`));
  t.match(call, new RegExp(`--asset-deposit <SCID:AMOUNT> [^-]*AMOUNT as for coins: ${how.source}`));
});
