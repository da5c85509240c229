/**
 * `umbra simulator` end to end, through HTTP only: the daemon and funded wallets come up, blocks are mined when
 * transactions wait (automine), on SIMULATOR.Mine and on SIGUSR1 (no automine), and Ctrl-C stops everything.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { toHex } from '../../host/protocol/bytes.js';
import { makeRegistration } from '../../host/protocol/registration.js';
import { encodeTransaction } from '../../host/protocol/transaction.js';
import { rpcCall } from '../helpers/app.js';
import { startCli, type RunningCli } from '../helpers/cli.js';

const core = await loadCore();

async function startSimulator(
  t: Test,
  extra: string[] = [],
): Promise<{ sim: RunningCli; daemon: string; wallets: string[] }> {
  const home = mkdtempSync(join(tmpdir(), 'umbra-e2e-home-'));
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

t.test('funded wallets, automine, clean stop', async (t) => {
  const { sim, daemon, wallets } = await startSimulator(t);
  t.equal(wallets.length, 3);
  for (const url of wallets)
    t.equal((await rpcCall(url, 'GetBalance')).balance, 800_000, 'each wallet starts with 800 000');
  const height = (await rpcCall(daemon, 'NODE.GetHeight')).height;
  const secret = core.keccak256(new TextEncoder().encode('a new account'));
  const registration = encodeTransaction(makeRegistration(core, core.generators('UMBRA').G, secret, 0));
  const sent = Date.now();
  const { txid } = await rpcCall(daemon, 'NODE.SendRawTransaction', { tx_as_hex: toHex(registration) });
  for (;;) {
    const record = (await rpcCall(daemon, 'NODE.GetTransaction', { txs_hashes: [txid] })).txs[0];
    if (record.valid_block) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.ok(Date.now() - sent < 2000, 'a waiting transaction is mined at once');
  t.ok((await rpcCall(daemon, 'NODE.GetHeight')).height > height);
  sim.child.kill('SIGINT');
  t.equal(await sim.exited, 0, 'Ctrl-C stops everything cleanly');
});

t.test('without automine, blocks come on request', async (t) => {
  const { sim, daemon } = await startSimulator(t, ['--noautomine']);
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
