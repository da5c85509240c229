/**
 * Where the wallet commands cache the balance-decoding table — `--cache-dir`, else $UMBRA_CACHE_DIR, else
 * ~/.umbra/cache — for read-only homes and containers; and the premine's history row, which says "genesis" rather
 * than the genesis block's timestamp 0 (1970-01-01). The real CLI against a real `umbra simulator`.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { premineSecret } from '../../protocol/premine.js';
import { simulatorWalletSecret } from '../../cli/simulator-command.js';
import { runCli, walletFlags } from '../helpers/cli.js';
import { startWalletSimulator } from '../helpers/wallet-simulator.js';

const core = await loadCore();
const simulator = await startWalletSimulator(t, 'umbra-wallet-cache-', 1);
const premine = await simulator.restore('premine', premineSecret(core, 'simulator'));
const wallet0 = await simulator.restore('wallet0', simulatorWalletSecret(core, 0));
/** A home of the wallet runs' own, apart from the simulator's. */
const home = mkdtempSync(join(tmpdir(), 'umbra-wallet-cache-home-'));
const TABLE = /^balance-v\d+-.+\.bin$/;

const wallet = (file: string, env: NodeJS.ProcessEnv, ...args: string[]) =>
  runCli(['wallet', ...args, ...walletFlags(file, simulator.passwordFile, simulator.daemonUrl)], undefined, 60_000, {
    HOME: home,
    ...env,
  });

t.test('--cache-dir puts the table where it says; the history shows the premine as genesis', async (t) => {
  const cache = join(home, 'elsewhere');
  const history = await wallet(premine, {}, 'history', '--cache-dir', cache);
  t.equal(history.code, 0, history.stderr);
  const [header, first] = history.stdout.split('\n');
  t.match(header, /^height +time +in\/out +amount \(UMB\) +fee \(UMB\)/, 'coins, with the unit');
  t.match(first, /^0 +genesis +in +\d+\.\d{5} +coinbase/, 'the premine, at genesis');
  t.notMatch(history.stdout, '1970-01-01');
  t.match(readdirSync(cache), [TABLE], 'the table is cached in --cache-dir');
  t.notOk(existsSync(join(home, '.umbra', 'cache')), 'and not in the home');
});

t.test('UMBRA_CACHE_DIR, when no --cache-dir is given', async (t) => {
  const cache = join(home, 'from-env');
  const balance = await wallet(wallet0, { UMBRA_CACHE_DIR: cache }, 'balance');
  t.equal(balance.code, 0, balance.stderr);
  t.match(readdirSync(cache), [TABLE]);
  t.notOk(existsSync(join(home, '.umbra', 'cache')));
  const help = (await runCli(['wallet', 'balance', '--help'])).stdout.replace(/\s+/g, ' ');
  t.match(
    help,
    '--cache-dir <dir> where the balance-decoding table is cached (default: $UMBRA_CACHE_DIR, else ~/.umbra/cache)',
  );
});
