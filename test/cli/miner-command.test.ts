/**
 * `umbra miner` against a real testnet daemon (bin/umbra, RocksDB) with getwork and no built-in miner: three miners
 * with different registered addresses find blocks whose ordinary miniblocks come from more than one of them; they
 * reconnect when the daemon restarts; an unregistered address is refused with the reason; --rpc mines through
 * templates. Testnet difficulty (50 at first) keeps a block to seconds on a CPU.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { CHAIN_PARAMS } from '../../protocol/chain-params.js';
import { encodeAddress } from '../../protocol/address.js';
import { generateKeyPair } from '../../protocol/keys.js';
import { NETWORKS } from '../../protocol/network.js';
import { premineKey } from '../../protocol/premine.js';
import { makeRegistration } from '../../protocol/registration.js';
import { encodeTransaction } from '../../protocol/transaction.js';
import { rpcCall } from '../helpers/app.js';
import { daemonArgs, startCli, runCli, type RunningCli } from '../helpers/cli.js';

const core = await loadCore();
const LISTENING = /daemon RPC listening on (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/;
const domain = NETWORKS.testnet.generatorDomain;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startDaemon(t: Test, dataDir: string, getwork: string): Promise<{ daemon: RunningCli; url: string }> {
  const daemon = startCli(daemonArgs('testnet', dataDir, '--getwork-bind', getwork));
  t.teardown(() => daemon.child.kill('SIGKILL'));
  const [, url] = await daemon.waitFor(LISTENING);
  await daemon.waitFor(/getwork server listening/);
  return { daemon, url: url! };
}

function startMiner(t: Test, daemon: string, address: string, extra: string[] = []): RunningCli {
  const miner = startCli([
    'miner',
    '--daemon-address',
    daemon,
    '--wallet-address',
    address,
    '--threads',
    '1',
    '--report-every',
    '2',
    ...extra,
  ]);
  t.teardown(() => miner.child.kill('SIGKILL'));
  return miner;
}

const count = (text: string, pattern: RegExp): number => text.match(new RegExp(pattern, 'g'))?.length ?? 0;

t.test('three miners share blocks, reconnect across a daemon restart, and stop on Ctrl-C', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'umbra-miner-'));
  const getwork = `127.0.0.1:${await freePort()}`;
  let { daemon, url } = await startDaemon(t, dataDir, getwork);

  // Two more addresses, registered by the first block the premine's miner finds.
  const others = [generateKeyPair(core, domain), generateKeyPair(core, domain)];
  const { G } = core.generators(domain);
  for (const { secretKey } of others) {
    const tx = makeRegistration(core, G, secretKey, CHAIN_PARAMS.testnet.registrationPowBits);
    await rpcCall(url, 'NODE.SendRawTransaction', { tx_as_hex: Buffer.from(encodeTransaction(tx)).toString('hex') });
  }
  const addresses = [premineKey(core, 'testnet'), ...others.map((pair) => pair.publicKey)].map((key) =>
    encodeAddress('testnet', key),
  );
  const miners = [startMiner(t, getwork, addresses[0]!)];
  await miners[0]!.waitFor(/block found/, 120_000);
  t.same((await rpcCall(url, 'NODE.GetTxPool')).txs, [], 'the registrations are mined');
  miners.push(startMiner(t, getwork, addresses[1]!), startMiner(t, getwork, addresses[2]!));
  for (const miner of miners) await miner.waitFor(/connected to the getwork server/);
  const info = await rpcCall(url, 'NODE.GetInfo');
  t.equal(info.connected_miners, 3, 'GetInfo counts the three miners');

  // A block whose nine ordinary miniblocks name more than one miner.
  const from = (await rpcCall(url, 'NODE.GetInfo')).height + 1;
  let shared: { height: number; miners: string[] } | undefined;
  for (let height = from; !shared; ) {
    if ((await rpcCall(url, 'NODE.GetInfo')).height < height) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    const { block_header } = await rpcCall(url, 'NODE.GetBlockHeaderByTopoHeight', { topoheight: height });
    const ordinary = (block_header.miners as string[]).slice(0, 9);
    if (new Set(ordinary).size > 1) shared = { height, miners: ordinary };
    if (height >= from + 30) throw new Error('no block with miniblocks of more than one miner in 30 blocks');
    height++;
  }
  t.pass(`block ${shared.height}: ordinary miniblocks from ${new Set(shared.miners).size} miners`);
  const figures = await rpcCall(url, 'NODE.GetInfo');
  t.ok(figures.blocks_count >= 2, 'blocks found through this daemon');
  t.ok(figures.miniblocks_accepted_count >= 20, 'miniblocks accepted');
  t.ok(figures.hashrate_1hr > 0, `the network's hash rate (${figures.hashrate_1hr} H/s)`);
  await miners[1]!.waitFor(/[\d.]+ H\/s on 1 thread\(s\), jobs \d+, miniblocks accepted \d+ rejected \d+, blocks \d+/);
  t.pass('a status line every --report-every seconds');

  // The daemon goes away and comes back on the same port: every miner reconnects and mining goes on.
  daemon.child.kill('SIGTERM');
  await daemon.exited;
  for (const miner of miners) await miner.waitFor(/getwork connection to .* lost; retrying/);
  ({ daemon, url } = await startDaemon(t, dataDir, getwork));
  for (const miner of miners)
    await miner.waitFor(/connected to the getwork server[\s\S]*lost[\s\S]*connected to the getwork server/, 60_000);
  const height = (await rpcCall(url, 'NODE.GetInfo')).height;
  await daemon.waitFor(/found block [0-9a-f]{64} at height \d+/, 120_000);
  t.ok((await rpcCall(url, 'NODE.GetInfo')).height > height, 'a block found after the restart');

  // Ctrl-C: a clean stop with the totals.
  miners[0]!.child.kill('SIGINT');
  t.equal(await miners[0]!.exited, 0, 'exit 0 on SIGINT');
  t.match(miners[0]!.log(), /stopped: 1 thread\(s\), jobs \d+, miniblocks accepted \d+/);
  t.ok(count(miners[0]!.log(), /block found/) >= 1);
});

t.test('an unregistered address is refused with the reason; --rpc mines through templates', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'umbra-miner-'));
  const getwork = `127.0.0.1:${await freePort()}`;
  const { url } = await startDaemon(t, dataDir, getwork);
  const stranger = encodeAddress('testnet', generateKeyPair(core, domain).publicKey);
  const refused = await runCli(['miner', '--daemon-address', getwork, '--wallet-address', stranger]);
  t.equal(refused.code, 1);
  t.match(refused.stderr, /the daemon refused this miner: address refused: the address is not registered/);
  const refusedRpc = await runCli(['miner', '--rpc', '--daemon-address', url, '--wallet-address', stranger]);
  t.equal(refusedRpc.code, 1);
  t.match(refusedRpc.stderr, /the daemon refused this miner: .*not registered/);

  const miner = startMiner(t, url.replace('http://', ''), encodeAddress('testnet', premineKey(core, 'testnet')), [
    '--rpc',
  ]);
  await miner.waitFor(/block found: [0-9a-f]{64}/, 120_000);
  t.ok((await rpcCall(url, 'NODE.GetInfo')).height >= 1, 'a block mined through GetBlockTemplate and SubmitBlock');
});
