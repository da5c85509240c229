/**
 * `umbra simulator`'s output and start: the wallet list and URLs first, the log in a file of the data directory (or
 * on stderr with --verbose), the chain of a temporary directory in memory; a start that fails leaves no temporary directory; --help and the command line offer only
 * the flags that apply to a one-node devnet (no P2P, no miner, no sync); no P2P runs, so no "no P2P peer" warning;
 * --cache-dir; the wallets' /health and the daemon's build in /metrics.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { UMBRA_VERSION } from '../../host/version.js';
import { rpcCall } from '../helpers/app.js';
import { runCli, startCli } from '../helpers/cli.js';
import { sampleValue, scrape } from '../helpers/prometheus.js';

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
  t.match(readFileSync(log!, 'utf8'), 'store: in memory', 'a chain in a temporary directory is held in memory');
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

/** The flags of a daemon on a network of many, none of which a one-node devnet that mines itself takes. */
const NOT_FOR_THE_SIMULATOR = [
  '--network',
  '--testnet',
  '--mining-threads',
  '--mining-address',
  '--p2p-bind',
  '--add-peer',
  '--max-peers',
  '--full-sync',
  '--archive',
  '--prune-depth',
  '--prune-blocks',
];

t.test('--help lists only the flags that apply, with the simulator’s defaults', async (t) => {
  const help = (await runCli(['simulator', '--help'])).stdout;
  for (const flag of NOT_FOR_THE_SIMULATOR) t.notMatch(help, new RegExp(`${flag}\\b`), `no ${flag}`);
  const flat = help.replace(/\s+/g, ' ');
  t.match(
    flat,
    '--data-dir <dir> where the database lives (default: a fresh temporary directory, removed at exit, with the chain in memory unless --store says otherwise)',
  );
  t.notMatch(flat, '~/.umbra/<network>');
  t.match(
    flat,
    /--plugins <list> comma-separated plugins to run, names or module paths \(default: dvm,consensus,mempool,mining,metrics,explorer,simulator\)/,
  );
  for (const flag of ['--config', '--rpc-bind', '--cache-dir', '--wallets', '--keep', '--noautomine', '--verbose'])
    t.match(help, flag);
  const daemon = (await runCli(['daemon', '--help'])).stdout;
  for (const flag of NOT_FOR_THE_SIMULATOR) t.match(daemon, flag, `the daemon keeps ${flag}`);
  t.match(daemon.replace(/\s+/g, ' '), '(default: ~/.umbra/<network>)');
});

t.test('flags that do not apply to the simulator are refused', async (t) => {
  for (const flags of [['--testnet'], ['--network', 'mainnet'], ['--mining-threads', '2'], ['--p2p-bind', ':0']]) {
    const tmp = freshTmp();
    const r = await runCli(['simulator', ...flags], undefined, 30_000, { HOME: home, TMPDIR: tmp });
    t.equal(r.code, 1, flags.join(' '));
    t.match(r.stderr, `error: unknown option '${flags[0]}'`);
    t.same(readdirSync(tmp), [], 'no directory made');
  }
});

t.test(
  'a devnet without P2P: no peer warning, its own cache dir, healthy wallets, its build in /metrics',
  async (t) => {
    const tmp = freshTmp();
    const cache = join(tmp, 'cache');
    // A peer warning after 100 ms alone, were P2P running.
    const config = join(tmp, 'config.json');
    writeFileSync(config, JSON.stringify({ noPeerWarningMs: 100 }));
    const sim = startCli(
      [
        'simulator',
        '--wallets',
        '1',
        '--rpc-bind',
        '127.0.0.1:0',
        '--wallet-rpc-port-base',
        '0',
        '--config',
        config,
        '--cache-dir',
        cache,
        '--verbose',
      ],
      { HOME: home, TMPDIR: tmp },
    );
    t.teardown(() => sim.child.kill('SIGKILL'));
    const [, daemonUrl] = await sim.waitFor(/^daemon RPC +(http:\/\/127\.0\.0\.1:\d+)\/json_rpc$/m, 90_000);
    const [, walletUrl] = await sim.waitFor(/^wallet 0: umbt1\S+ (http:\/\/127\.0\.0\.1:\d+)\/json_rpc$/m);
    await sim.waitFor(/simulator ready/, 90_000);
    t.match(
      sim.log(),
      'Wallets: 1, each topped up to 8.00000 UMB (800000 atomic units) at start',
      'amounts in coins with the unit',
    );

    const wallet = walletUrl!;
    // Nothing but /health asks the wallet anything: the probes alone bring it in step (the first may find its first
    // sync, which builds the balance table, still running).
    let health: { status: string; synced: boolean } | undefined;
    for (let probe = 0; probe < 15 && !health?.synced; probe++) {
      if (probe > 0) await sleep(1000);
      health = (await (await fetch(`${wallet}/health`)).json()) as typeof health;
    }
    t.match(health, { status: 'ok', synced: true }, 'an idle wallet in sync is healthy');

    const status = await runCli(['status', '--daemon-address', daemonUrl!]);
    t.match(status.stdout, /^peers: +none \(the daemon runs without P2P\)$/m);
    const metrics = await scrape(daemonUrl!);
    t.equal(
      sampleValue(metrics, 'umbra_build_info', {
        version: UMBRA_VERSION,
        network: 'simulator',
        crypto: /crypto implementation: (\w+)/.exec(sim.log())![1]!,
      }),
      1,
    );

    await rpcCall(wallet, 'GetBalance');
    t.match(readdirSync(cache), [/^balance-v\d+-.+\.bin$/], 'the balance table is cached in --cache-dir');
    t.notOk(existsSync(join(home, '.umbra', 'cache')), 'and not in the home');

    await sleep(1000);
    t.notMatch(sim.log(), /no P2P peer/, 'no P2P, no warning about peers');
    sim.child.kill('SIGINT');
    t.equal(await sim.exited, 0);
  },
);
