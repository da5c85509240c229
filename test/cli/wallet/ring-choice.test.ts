/**
 * The ring of `umbra wallet send|call|install` on a young chain (a simulator with 3 wallets: 4 registered accounts),
 * through the real CLI: the default ring becomes the largest the chain can fill, and the summary says so before the
 * question; a ring asked for with --ring that the chain cannot fill is refused before anything is shown or asked.
 */
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { simulatorWalletSecret } from '../../../cli/simulator-command.js';
import { premineSecret } from '../../../protocol/premine.js';
import { runCli, walletFlags } from '../../helpers/cli.js';
import { startPtyCli } from '../../helpers/pty.js';
import { startWalletSimulator } from '../../helpers/wallet-simulator.js';

const core = await loadCore();
const { env, passwordFile, daemonUrl, restore } = await startWalletSimulator(t, 'umbra-wallet-ring-', 3);
const NAME_SERVICE = `${'0'.repeat(63)}1`;
const [premine, receiver] = await Promise.all([
  restore('premine', premineSecret(core, 'simulator')),
  restore('wallet0', simulatorWalletSecret(core, 0)),
]);
const wallet = (file: string, ...args: string[]) =>
  runCli(['wallet', ...args, ...walletFlags(file, passwordFile, daemonUrl)], undefined, 60_000, env);
const receiverAddress = (await wallet(receiver, 'address')).stdout.trim();
const LOWERED =
  'ring size: +4 \\(the largest this chain allows: it has 4 registered accounts, the default ring 16 needs 16\\)';

t.test('send without --ring: the summary shows the ring the chain allows, then asks, then sends', async (t) => {
  const send = startPtyCli(
    ['wallet', 'send', receiverAddress, '1.5', ...walletFlags(premine, passwordFile, daemonUrl)],
    env,
  );
  t.teardown(() => send.kill());
  const summary = await send.waitFor(new RegExp(`${LOWERED}\\n[^\\n]*Send this transaction\\?`), 0, 60_000);
  t.ok(summary, 'the lowered ring is in the summary, before the question');
  await send.type('y');
  await send.type('\r');
  await send.waitFor(/^block: +\d+$/m, 0, 60_000);
  t.equal(await send.exited, 0, send.screen());
  t.notMatch(send.screen(), /needs 16 registered accounts; this chain has/, 'no refusal after the answer');

  const json = await wallet(premine, 'send', receiverAddress, '0.1', '--yes', '--json');
  t.equal(json.code, 0, json.stderr);
  t.match(JSON.parse(json.stdout), { ring_size: 4, mined: true });
  t.match(json.stderr, new RegExp(`^${LOWERED}$`, 'm'));
});

t.test('a --ring the chain cannot fill is refused before the summary and the question', async (t) => {
  const refusal =
    /^umbra: ring (\d+) needs \1 registered accounts; this chain has 4 — use --ring 4, or leave --ring out for the largest ring it can fill$/m;
  const cases: string[][] = [
    ['send', receiverAddress, '1', '--ring', '8'],
    ['call', NAME_SERVICE, 'Register', 'name=ringtest', '--ring', '16'],
    ['install', 'examples/contracts/asset.bas', '--ring', '8'],
  ];
  for (const args of cases) {
    // No --yes and no terminal: a check after the summary would fail as "no terminal to confirm on" instead.
    const run = await wallet(premine, ...args);
    t.equal(run.code, 1, args.join(' '));
    t.match(run.stderr, refusal, args.join(' '));
    t.notMatch(run.stderr, /^fee:/m, 'no summary was shown');
    const json = await wallet(premine, ...args, '--json');
    t.match(JSON.parse(json.stdout).error, { code: 'wallet.ring-too-large' });
  }
  const fits = await wallet(premine, 'send', receiverAddress, '0.1', '--ring', '4', '--yes', '--json');
  t.match(JSON.parse(fits.stdout), { ring_size: 4, mined: true }, 'a ring the chain can fill is sent');
});
