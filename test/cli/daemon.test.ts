/** `umbra daemon` end to end: the real CLI, real RocksDB, real HTTP, signals. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { postRpc } from '../helpers/app.js';
import { daemonArgs, runCli, startCli } from '../helpers/cli.js';

const LISTENING = /daemon RPC listening on (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/;

t.test(
  'the daemon serves RPC from RocksDB, refuses a second daemon on its data dir, and stops on SIGTERM',
  async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'umbra-daemon-'));
    const args = daemonArgs('testnet', dataDir);
    const daemon = startCli(args);
    t.teardown(() => daemon.child.kill('SIGKILL'));
    const [, url] = await daemon.waitFor(LISTENING);
    t.match(daemon.log(), /crypto implementation: (native|fallback)/, 'logs which crypto implementation runs');
    t.match(daemon.log(), /store: RocksDB in /);
    const echo = await postRpc(url!, { jsonrpc: '2.0', id: 1, method: 'NODE.Echo', params: ['hi'] });
    t.equal(echo.json.result, 'UMBRA hi');

    const second = await runCli(args);
    t.equal(second.code, 1, 'a second daemon on the same data dir exits 1');
    t.match(second.stderr, /umbra: the database in .* is in use by another process/);
    t.notMatch(second.stderr, /\n\s+at /, 'no stack trace');
    t.equal(
      (await postRpc(url!, { jsonrpc: '2.0', id: 2, method: 'NODE.Ping' })).json.result,
      'Pong ',
      'the first daemon is unaffected',
    );

    daemon.child.kill('SIGTERM');
    t.equal(await daemon.exited, 0, 'graceful stop exits 0');
    t.match(daemon.log(), /SIGTERM received: stopping[\s\S]*stopped/);

    const again = startCli(args);
    t.teardown(() => again.child.kill('SIGKILL'));
    await again.waitFor(LISTENING);
    again.child.kill('SIGINT');
    t.equal(await again.exited, 0, 'the database was closed cleanly: it reopens, and SIGINT stops too');
  },
);

t.test('bad flags and config are clear errors', async (t) => {
  const badBind = await runCli(['daemon', '--rpc-bind', 'nowhere', '--store', 'memory']);
  t.equal(badBind.code, 1);
  t.match(badBind.stderr, /umbra: command line: 'rpcBind' must be host:port/);
  const badChoice = await runCli(['daemon', '--store', 'floppy']);
  t.not(badChoice.code, 0);
  t.match(badChoice.stderr, /floppy/);
  const badPlugin = await runCli(['daemon', '--store', 'memory', '--plugins', 'consensus,warp-drive']);
  t.equal(badPlugin.code, 1);
  t.match(badPlugin.stderr, /unknown plugin 'warp-drive'/);
  const missingDep = await runCli(['daemon', '--store', 'memory', '--transports', 'ws']);
  t.equal(missingDep.code, 1);
  t.match(missingDep.stderr, /plugin 'rpc-ws' requires 'rpc-http'/);
  const contradiction = await runCli(['daemon', '--testnet', '--network', 'mainnet']);
  t.equal(contradiction.code, 1);
  t.match(contradiction.stderr, /--testnet contradicts --network mainnet/);
  const shallow = await runCli(['daemon', '--store', 'memory', '--prune-depth', '5']);
  t.equal(shallow.code, 1);
  t.match(shallow.stderr, /umbra: command line: 'pruneDepth' must be 0 \(automatic\) or at least 11 blocks/);
  const archive = await runCli(['daemon', '--store', 'memory', '--archive', '--prune-depth', '100']);
  t.equal(archive.code, 1);
  t.match(archive.stderr, /umbra: --archive keeps every state version: it cannot be combined with --prune-depth/);
});

t.test('--help documents every flag', async (t) => {
  const help = await runCli(['daemon', '--help']);
  t.equal(help.code, 0);
  for (const flag of [
    '--network',
    '--testnet',
    '--config',
    '--data-dir',
    '--rpc-bind',
    '--rpc-login',
    '--rpc-max-body',
    '--store',
    '--crypto',
    '--plugins',
    '--transports',
    '--log-level',
    '--p2p-bind',
    '--add-peer',
    '--max-peers',
    '--archive',
    '--prune-depth',
    '--prune-blocks',
  ]) {
    t.match(help.stdout, flag, `documents ${flag}`);
  }
  const top = await runCli(['--help']);
  t.match(top.stdout, /daemon/);
});
