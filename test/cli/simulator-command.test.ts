/**
 * `umbra simulator`'s output and start: the wallet list and URLs first, the log in a file of the data directory (or
 * on stderr with --verbose); a start that fails leaves no temporary directory; flags of other networks are refused.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runCli, startCli } from '../helpers/cli.js';

const home = mkdtempSync(join(tmpdir(), 'umbra-sim-cli-home-'));
const freshTmp = (): string => mkdtempSync(join(tmpdir(), 'umbra-sim-cli-tmp-'));

t.test('wallets and URLs first, the log in simulator.log; Ctrl-C removes the temporary directory', async (t) => {
  const tmp = freshTmp();
  const sim = startCli(['simulator', '--wallets', '2', '--rpc-bind', '127.0.0.1:0', '--wallet-rpc-port-base', '0'], {
    HOME: home,
    TMPDIR: tmp,
  });
  t.teardown(() => sim.child.kill('SIGKILL'));
  await sim.waitFor(/simulator ready/, 90_000);
  const output = sim.log();
  t.match(
    output,
    /^Umbra simulator\n\nWallets: 2, .*\n.*\nwallet 0: umbt1\S+ http:\/\/127\.0\.0\.1:\d+\/json_rpc\nwallet 1: /,
  );
  t.ok(output.indexOf('wallet 1:') < output.indexOf('daemon RPC http://'), 'the wallets before the daemon');
  t.notMatch(output, / INFO /, 'no log lines in the way');
  const [, log] = /log +(\S+simulator\.log)/.exec(output)!;
  t.match(readFileSync(log!, 'utf8'), / INFO +\[/);
  const [dir] = readdirSync(tmp);
  t.ok(dir?.startsWith('umbra-simulator-'));
  sim.child.kill('SIGINT');
  t.equal(await sim.exited, 0);
  t.same(readdirSync(tmp), [], 'the temporary directory is gone');
});

t.test('--verbose keeps the log on stderr', async (t) => {
  const sim = startCli(
    ['simulator', '--wallets', '1', '--rpc-bind', '127.0.0.1:0', '--wallet-rpc-port-base', '0', '--verbose'],
    { HOME: home, TMPDIR: freshTmp() },
  );
  t.teardown(() => sim.child.kill('SIGKILL'));
  await sim.waitFor(/simulator ready/, 90_000);
  t.match(sim.log(), / INFO +\[/);
  t.match(sim.log(), 'log        on stderr (--verbose)');
  sim.child.kill('SIGINT');
  t.equal(await sim.exited, 0);
});

t.test('a start that fails (the port is taken) removes the directory it made', async (t) => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => taken.close());
  const port = (taken.address() as { port: number }).port;
  const tmp = freshTmp();
  const r = await runCli(
    ['simulator', '--wallets', '1', '--rpc-bind', `127.0.0.1:${port}`, '--wallet-rpc-port-base', '0'],
    undefined,
    90_000,
    { HOME: home, TMPDIR: tmp },
  );
  t.equal(r.code, 1);
  t.match(r.stderr, /umbra: .*(EADDRINUSE|in use)/);
  t.same(readdirSync(tmp), [], 'nothing left behind');
});

t.test('flags that do not apply to the simulator are refused', async (t) => {
  for (const [flags, message] of [
    [['--testnet'], /the simulator runs the simulator network, not testnet/],
    [['--network', 'mainnet'], /not mainnet/],
    [['--mining-threads', '2'], /--mining-threads and --mining-address do not apply/],
  ] as const) {
    const tmp = freshTmp();
    const r = await runCli(['simulator', ...flags], undefined, 30_000, { HOME: home, TMPDIR: tmp });
    t.equal(r.code, 1, flags.join(' '));
    t.match(r.stderr, message);
    t.notOk(existsSync(join(tmp, 'x')) || readdirSync(tmp).length > 0, 'no directory made');
  }
});
