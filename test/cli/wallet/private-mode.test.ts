/**
 * The private wallet through the real CLI against a real `umbra simulator`, with a recording proxy as its daemon:
 * restore, sync, balance, history, a received transfer, a ring-16 send and a contract call name nothing of the
 * wallet in any request but the transactions it sends, whose rings hold it (the whole state is its privacy range:
 * fewer than 256 accounts); `wallet status` says so;
 * and each lie of the proxy is caught — the daemon named, a non-zero exit, nothing sent, the wallet file unchanged.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { WHOLE_TRIE } from '../../../protocol/state/range-check.js';
import { simulatorWalletSecret } from '../../../cli/simulator-command.js';
import { walletKeys } from '../../../wallet/wallet-keys.js';
import { rpcCall } from '../../helpers/app.js';
import { runCli, walletFlags } from '../../helpers/cli.js';
import { leaks } from '../../helpers/privacy-leaks.js';
import { startRecordingProxy, type Lie, type ProxiedCall } from '../../helpers/recording-proxy.js';
import { startWalletSimulator } from '../../helpers/wallet-simulator.js';

const core = await loadCore();
const sim = await startWalletSimulator(t, 'umbra-wallet-private-', 20);
const proxy = await startRecordingProxy(sim.daemonUrl);
t.teardown(() => proxy.close());

const aliceKeys = walletKeys(core, 'simulator', simulatorWalletSecret(core, 1));
const alice = await sim.restore('alice', simulatorWalletSecret(core, 1));
const bob = await sim.restore('bob', simulatorWalletSecret(core, 2));
const bobAddress = walletKeys(core, 'simulator', simulatorWalletSecret(core, 2)).address;

/** `umbra wallet COMMAND … --json` on `file` through `daemon` (the proxy unless told). */
const wallet = (file: string, daemon: string, command: string, ...args: string[]) =>
  runCli(
    ['wallet', command, ...args, '--json', ...walletFlags(file, sim.passwordFile, daemon)],
    undefined,
    90_000,
    sim.env,
  );
/** The same through the proxy, which must succeed; its JSON. */
async function viaProxy(t: Test, command: string, ...args: string[]): Promise<any> {
  const run = await wallet(alice, proxy.url, command, ...args);
  t.equal(run.code, 0, `${command} ${args.join(' ')}: ${run.stderr}${run.stdout}`);
  return JSON.parse(run.stdout);
}

t.test('through restore, sync, balance, history, receiving, a ring-16 send and a contract call', async (t) => {
  proxy.bodies.length = 0;
  t.equal(Number((await viaProxy(t, 'balance')).balance), 800_000, "a simulator wallet's 8 coins, proven");
  const received = await wallet(bob, sim.daemonUrl, 'send', aliceKeys.address, '1.5', '--ring', '2', '--yes');
  t.equal(received.code, 0, received.stderr);
  const { txid } = JSON.parse(received.stdout);
  const history = await viaProxy(t, 'history', '--in');
  t.ok(
    history.entries.some((entry: any) => entry.txid === txid && Number(entry.amount) === 150_000),
    `the received transfer, found in the blocks its privacy range changed in: ${JSON.stringify(history.entries)}`,
  );
  const sent = await viaProxy(t, 'send', bobAddress, '0.25', '--ring', '16', '--yes');
  t.match(sent, { ring_size: 16, mined: true });

  const source = join(sim.dir, 'store.bas');
  writeFileSync(
    source,
    'Function Initialize() Uint64\n10 RETURN 0\nEnd Function\n\n' +
      'Function Store(n Uint64) Uint64\n10 STORE("last", n)\n20 RETURN 0\nEnd Function\n',
  );
  const installed = await wallet(bob, sim.daemonUrl, 'install', source, '--yes');
  t.equal(installed.code, 0, installed.stderr);
  const { scid } = JSON.parse(installed.stdout);
  t.match(await viaProxy(t, 'call', scid, 'Store', 'n=7', '--ring', '16', '--yes'), { mined: true });
  const { balance } = await viaProxy(t, 'balance');
  t.ok(Number(balance) < 800_000 + 150_000 - 25_000, `less what it sent and paid: ${balance}`);

  const status = await viaProxy(t, 'status');
  t.match(status, { mode: 'private', privacy_set: 256, daemon: proxy.url });
  t.ok(status.verified_height > 0, `verified up to ${status.verified_height}`);

  const identity = {
    address: aliceKeys.address,
    publicKey: aliceKeys.publicKey,
    keyhash: core.blake2s256(aliceKeys.publicKey),
  };
  t.ok(proxy.bodies.length > 20, `${proxy.bodies.length} requests recorded`);
  // The transactions themselves hold their rings, the wallet among them: that much the chain shows anyway.
  const reads = proxy.bodies.filter((body) => !body.includes('"NODE.SendRawTransaction"'));
  t.equal(proxy.bodies.length - reads.length, 2, 'two transactions sent');
  const leaked = reads.flatMap((body) =>
    leaks(body, identity, WHOLE_TRIE).map((what) => `${what} in ${body.slice(0, 80)}`),
  );
  t.same(leaked, [], 'no request names the wallet');
});

t.test("with --send-daemon, the daemon serving the sync sees nothing of the wallet's transactions", async (t) => {
  const sendProxy = await startRecordingProxy(sim.daemonUrl);
  t.teardown(() => sendProxy.close());
  proxy.bodies.length = 0;
  const sent = await viaProxy(t, 'send', bobAddress, '0.1', '--ring', '16', '--yes', '--send-daemon', sendProxy.url);
  t.match(sent, { ring_size: 16, mined: true });
  await viaProxy(t, 'history', '--send-daemon', sendProxy.url);
  const building = ['NODE.SendRawTransaction', 'NODE.GetRandomAddress', 'NODE.GetGasEstimate'];
  const seen = (bodies: string[]) => building.filter((method) => bodies.some((body) => body.includes(method)));
  t.same(seen(proxy.bodies), [], 'the sync daemon was asked nothing to build or send the transaction');
  // It is asked for transactions only as whole blocks' lists, as an explorer reads blocks.
  const asked = proxy.bodies
    .flatMap((body) => [JSON.parse(body)].flat())
    .filter((call: ProxiedCall) => call.method === 'NODE.GetTransaction')
    .map((call: ProxiedCall) => call.params.txs_hashes as string[]);
  for (const txids of asked) {
    const blocks = new Set<string>();
    for (const { valid_block } of (await rpcCall(sim.daemonUrl, 'NODE.GetTransaction', { txs_hashes: txids })).txs)
      blocks.add(valid_block);
    const whole: string[] = [];
    for (const hash of blocks)
      whole.push(...JSON.parse((await rpcCall(sim.daemonUrl, 'NODE.GetBlock', { hash })).json).tx_hashes);
    t.same(
      [...txids].sort(),
      whole.sort(),
      `${txids.length} transactions asked: those of ${blocks.size} blocks, whole`,
    );
  }
  t.ok(
    asked.some((txids) => txids.includes(sent.txid)),
    "the transaction's block was read whole",
  );
  t.ok(seen(sendProxy.bodies).includes('NODE.SendRawTransaction'), 'the send daemon got it');
  t.match((await viaProxy(t, 'status', '--send-daemon', sendProxy.url)).send_daemon, sendProxy.url);
});

/** Runs `command` on alice's wallet with `lie` told, expecting it refused; the proxy is honest again after. */
async function caught(t: Test, lie: Lie, why: RegExp, command: string, ...args: string[]) {
  const before = readFileSync(alice);
  proxy.lie = lie;
  proxy.bodies.length = 0;
  try {
    const run = await wallet(alice, proxy.url, command, ...args);
    t.not(run.code, 0, 'a non-zero exit');
    const { error } = JSON.parse(run.stdout);
    t.match(error.message, proxy.url, `naming the daemon: ${error.message}`);
    t.match(error.message, why);
    t.notOk(
      proxy.bodies.some((body) => body.includes('SendRawTransaction')),
      'nothing sent',
    );
    t.ok(readFileSync(alice).equals(before), 'the wallet file unchanged');
  } finally {
    proxy.lie = undefined;
  }
}

/** New blocks for the lies to be told about: a transfer from bob, mined. */
async function newBlocks(t: Test) {
  const run = await wallet(bob, sim.daemonUrl, 'send', aliceKeys.address, '0.01', '--ring', '4', '--yes');
  t.equal(run.code, 0, run.stderr);
}

/** A state-proof answer with the value of `key`'s leaf changed in its last byte. */
const alteredLeaf =
  (key: Uint8Array): Lie['answer'] =>
  (call: ProxiedCall, result: any) => {
    const hex = Buffer.from(key).toString('hex');
    const leaf = call.method === 'NODE.GetStateProof' && result.chunk?.leaves.find((l: any) => l.key === hex);
    if (!leaf) return undefined;
    leaf.value = leaf.value.slice(0, -2) + (leaf.value.endsWith('00') ? '01' : '00');
    return result;
  };

t.test('a lying daemon is caught', async (t) => {
  await viaProxy(t, 'balance'); // alice has verified the chain up to here

  await t.test("a changed ciphertext of the wallet's own balance", (t) =>
    caught(t, { answer: alteredLeaf(aliceKeys.publicKey) }, /did not prove/, 'balance'),
  );

  await t.test("a changed ring member's balance while building a transfer", (t) =>
    caught(
      t,
      { answer: alteredLeaf(walletKeys(core, 'simulator', simulatorWalletSecret(core, 7)).publicKey) },
      /did not prove/,
      'send',
      bobAddress,
      '0.01',
      '--ring',
      '16',
      '--yes',
    ),
  );

  await t.test('a transaction dropped from a block answer', async (t) => {
    await newBlocks(t);
    const drop = (call: ProxiedCall, result: any) =>
      call.method === 'NODE.GetTransaction' && result.txs.length > 0
        ? { ...result, txs: result.txs.slice(1) }
        : undefined;
    await caught(t, { answer: drop }, /transactions, the daemon served/, 'history');
  });

  await t.test("a change of the wallet's range left out of the history answer", async (t) => {
    await newBlocks(t);
    const leaveOut = (call: ProxiedCall, result: any) =>
      call.method === 'NODE.GetRangeHistory' && result.points.length > 2
        ? { ...result, points: [result.points[0], result.points.at(-1)] }
        : undefined;
    await caught(t, { answer: leaveOut }, /did not prove/, 'history');
  });

  await t.test('an older state served as the current one', async (t) => {
    const older = (call: ProxiedCall) =>
      call.method === 'NODE.GetStateProof' ? { ...call.params, topoheight: call.params.topoheight - 1 } : undefined;
    await caught(t, { request: older }, /did not prove/, 'balance');
  });

  await t.test('a daemon whose top is below what the wallet verified', async (t) => {
    const behind = (call: ProxiedCall, result: any) =>
      call.method === 'NODE.GetHeaders' ? { headers: [], top_topoheight: result.top_topoheight - 2 } : undefined;
    await caught(t, { answer: behind }, /below/, 'balance');
  });

  await t.test('a header chain that does not link', async (t) => {
    await newBlocks(t);
    await newBlocks(t);
    const swapped = (call: ProxiedCall, result: any) => {
      if (call.method !== 'NODE.GetHeaders' || result.headers.length < 3) return undefined;
      const [own, first, second, ...rest] = result.headers;
      return { ...result, headers: [own, second, first, ...rest] };
    };
    await caught(t, { answer: swapped }, /refused|link|parent|tip/i, 'balance');
  });
});
