/**
 * `umbra simulator` end to end, through HTTP only: the daemon and funded wallets come up, blocks are mined when
 * transactions wait (automine), on SIMULATOR.Mine and on SIGUSR1 (no automine), Ctrl-C stops everything, and a
 * `--keep` start completes the funding of a first start that was killed between registering and paying.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { simulatorWalletSecret } from '../../cli/simulator-command.js';
import { toHex } from '../../protocol/bytes.js';
import { CHAIN_PARAMS } from '../../protocol/chain-params.js';
import { NETWORKS } from '../../protocol/network.js';
import { makeRegistration } from '../../protocol/registration.js';
import { encodeTransaction } from '../../protocol/transaction.js';
import { rpcCall } from '../helpers/app.js';
import { startCli, type RunningCli } from '../helpers/cli.js';

const core = await loadCore();

async function startSimulator(
  t: Test,
  extra: string[] = [],
  home = mkdtempSync(join(tmpdir(), 'umbra-e2e-home-')),
): Promise<{ sim: RunningCli; daemon: string; wallets: string[] }> {
  const sim = startCli(
    ['simulator', '--wallets', '3', '--rpc-bind', '127.0.0.1:0', '--wallet-rpc-port-base', '0', ...extra],
    { HOME: home },
  );
  t.teardown(() => sim.child.kill('SIGKILL'));
  const [, daemon] = await sim.waitFor(/daemon RPC (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/, 60_000);
  await sim.waitFor(/simulator ready/, 60_000);
  const wallets = [...sim.log().matchAll(/wallet \d+: \S+ (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/g)].map((m) => m[1]!);
  return { sim, daemon: daemon!, wallets };
}

/** Sends `tx` to the daemon at `url` and waits until a block holds it. */
async function sendAndWaitForBlock(url: string, tx: Uint8Array): Promise<void> {
  const { txid } = await rpcCall(url, 'NODE.SendRawTransaction', { tx_as_hex: toHex(tx) });
  while (!(await rpcCall(url, 'NODE.GetTransaction', { txs_hashes: [txid] })).txs[0].valid_block)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

t.test('funded wallets, automine, clean stop', async (t) => {
  const { sim, daemon, wallets } = await startSimulator(t);
  t.equal(wallets.length, 3);
  for (const url of wallets)
    t.equal((await rpcCall(url, 'GetBalance')).balance, 800_000, 'each wallet starts with 800 000');
  const height = (await rpcCall(daemon, 'NODE.GetHeight')).height;
  const secret = core.keccak256(new TextEncoder().encode('a new account'));
  const registration = encodeTransaction(makeRegistration(core, core.generators('UMBRA').G, secret, 0));
  const sent = Date.now();
  await sendAndWaitForBlock(daemon, registration);
  t.ok(Date.now() - sent < 2000, 'a waiting transaction is mined at once');
  t.ok((await rpcCall(daemon, 'NODE.GetHeight')).height > height);
  sim.child.kill('SIGINT');
  t.equal(await sim.exited, 0, 'Ctrl-C stops everything cleanly');
});

t.test('without automine, blocks come on request', async (t) => {
  const { sim, daemon } = await startSimulator(t, ['--noautomine', '--verbose']);
  const height = (await rpcCall(daemon, 'NODE.GetHeight')).height;
  const { blids } = await rpcCall(daemon, 'SIMULATOR.Mine', { blocks: 2 });
  t.equal(blids.length, 2);
  t.equal((await rpcCall(daemon, 'NODE.GetHeight')).height, height + 2);
  sim.child.kill('SIGUSR1');
  await sim.waitFor(/SIGUSR1: mined block/);
  t.equal((await rpcCall(daemon, 'NODE.GetHeight')).height, height + 3);
  await t.rejects(rpcCall(daemon, 'SIMULATOR.Mine', { blocks: 0 }), { code: -32602 });
  sim.child.kill('SIGINT');
  t.equal(await sim.exited, 0);
});

t.test('a first start killed after registering the wallets, before paying them, is completed by --keep', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'umbra-e2e-home-'));
  const dataDir = join(mkdtempSync(join(tmpdir(), 'umbra-e2e-simulator-')), 'chain');
  // What such a start leaves in --data-dir: wallets 0 and 1 registered on the chain, nobody paid, a SIGKILLed daemon.
  const crashed = startCli(
    [
      ...['daemon', '--network', 'simulator', '--data-dir', dataDir, '--rpc-bind', '127.0.0.1:0'],
      ...['--plugins', 'dvm,consensus,mempool,mining,simulator'],
    ],
    { HOME: home },
  );
  t.teardown(() => crashed.child.kill('SIGKILL'));
  const [, url] = await crashed.waitFor(/daemon RPC listening on (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/, 60_000);
  const G = core.generators(NETWORKS.simulator.generatorDomain).G;
  for (const i of [0, 1]) {
    const secret = simulatorWalletSecret(core, i);
    await sendAndWaitForBlock(
      url!,
      encodeTransaction(makeRegistration(core, G, secret, CHAIN_PARAMS.simulator.registrationPowBits)),
    );
  }
  crashed.child.kill('SIGKILL');
  await crashed.exited;

  const kept = ['--data-dir', dataDir, '--keep'];
  const first = await startSimulator(t, kept, home);
  t.match(
    first.sim.log(),
    /; 3 wallets funded up to 8\.00000 UMB \(800000 atomic units\)/,
    'the two registered and the new one are paid',
  );
  for (const url of first.wallets) t.equal((await rpcCall(url, 'GetBalance')).balance, 800_000);
  first.sim.child.kill('SIGINT');
  t.equal(await first.sim.exited, 0);

  const again = await startSimulator(t, kept, home);
  t.notMatch(again.sim.log(), /wallets funded/, 'a later start pays nobody twice');
  for (const url of again.wallets) t.equal((await rpcCall(url, 'GetBalance')).balance, 800_000);
  again.sim.child.kill('SIGINT');
  t.equal(await again.sim.exited, 0);
});
