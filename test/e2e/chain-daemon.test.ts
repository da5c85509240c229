/**
 * The chain end to end through the real daemon (bin/umbra, RocksDB, HTTP and WebSocket RPC): mining with templates
 * and SubmitBlock, every chain RPC method, push notifications, restart, a competing heavier branch, SIGKILL while
 * writing, and the built-in miner at testnet difficulty.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import WebSocket from 'ws';
import { loadCore } from '../../core-native/ts/index.js';
import { encodeAddress } from '../../protocol/address.js';
import { premineKey } from '../../protocol/premine.js';
import { mineOneViaRpc, rpcCall } from '../helpers/app.js';
import { daemonArgs, startCli, type RunningCli } from '../helpers/cli.js';

const LISTENING = /daemon RPC listening on (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/;
const core = await loadCore();

async function startDaemon(
  t: Test,
  network: string,
  dataDir: string,
  extra: string[] = [],
): Promise<{ daemon: RunningCli; url: string }> {
  const daemon = startCli(daemonArgs(network, dataDir, ...extra));
  t.teardown(() => daemon.child.kill('SIGKILL'));
  const [, url] = await daemon.waitFor(LISTENING);
  return { daemon, url: url! };
}

const call = rpcCall;
const mineOne = mineOneViaRpc;

const simulatorAddress = encodeAddress('simulator', premineKey(core, 'simulator'));

t.test('templates, SubmitBlock, every chain method, push, restart', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'umbra-e2e-chain-'));
  let { daemon, url } = await startDaemon(t, 'simulator', dataDir);
  const genesis = await call(url, 'NODE.GetBlockHeaderByTopoHeight', { topoheight: 0 });
  t.equal(genesis.block_header.height, 0);
  t.equal(genesis.block_header.tips, null);

  const ws = new WebSocket(url.replace('http', 'ws') + '/ws');
  await new Promise((resolve) => ws.once('open', resolve));
  const pushed: string[] = [];
  ws.on('message', (data) => pushed.push(JSON.parse(data.toString()).method));

  const job = await call(url, 'NODE.GetBlockTemplate', {
    wallet_address: simulatorAddress,
    block: true,
    miner: 'test',
  });
  for (const field of [
    'jobid',
    'blockhashing_blob',
    'difficulty',
    'difficultyuint64',
    'height',
    'prev_hash',
    'epochmilli',
    'blocks',
    'miniblocks',
    'lasterror',
    'status',
  ])
    t.ok(field in job, `template has ${field}`);
  t.equal(job.blockhashing_blob.length, 96, '48-byte miniblock');
  t.equal(job.height, 1);
  const mini = await call(url, 'NODE.SubmitBlock', { jobid: job.jobid, mbl_blob: job.blockhashing_blob });
  t.same(
    [mini.mini, mini.block_found, mini.status],
    [true, false, 'OK'],
    'an ordinary miniblock is accepted into the pool',
  );
  await t.rejects(
    call(url, 'NODE.SubmitBlock', { jobid: job.jobid, mbl_blob: job.blockhashing_blob }),
    /duplicate miniblock/,
  );
  await t.rejects(
    call(url, 'NODE.SubmitBlock', { jobid: 'nope', mbl_blob: job.blockhashing_blob }),
    /job nope not found/,
  );
  await t.rejects(call(url, 'NODE.SubmitBlock', { jobid: job.jobid, mbl_blob: 'abcd' }), /could not be decoded/);
  await t.rejects(
    call(url, 'NODE.GetBlockTemplate', { wallet_address: 'umbt1notanaddress' }),
    /wallet_address could not be parsed/,
  );
  const blids = [await mineOne(url, simulatorAddress)];
  for (let i = 0; i < 9; i++) blids.push(await mineOne(url, simulatorAddress));

  const info = await call(url, 'NODE.GetInfo');
  for (const field of [
    'alt_blocks_count',
    'difficulty',
    'grey_peerlist_size',
    'height',
    'stableheight',
    'topoheight',
    'treehash',
    'averageblocktime50',
    'incoming_connections_count',
    'outgoing_connections_count',
    'target',
    'target_height',
    'testnet',
    'network',
    'top_block_hash',
    'tx_count',
    'tx_pool_size',
    'dynamic_fee_per_kb',
    'total_supply',
    'median_block_size',
    'white_peerlist_size',
    'version',
    'status',
  ]) {
    t.ok(field in info, `GetInfo has ${field}`);
  }
  t.equal(info.height, 10);
  t.equal(info.stableheight, 2);
  t.equal(info.top_block_hash, blids[9]);
  t.equal(info.testnet, true);
  t.equal(info.network, 'simulator');
  t.same(await call(url, 'NODE.GetHeight'), { height: 10, stableheight: 2, topoheight: 10, status: 'OK' });
  t.same(await call(url, 'NODE.GetBlockCount'), { count: 11, status: 'OK' });
  const last = await call(url, 'NODE.GetLastBlockHeader');
  for (const field of [
    'depth',
    'difficulty',
    'hash',
    'height',
    'topoheight',
    'major_version',
    'minor_version',
    'nonce',
    'orphan_status',
    'syncblock',
    'sideblock',
    'txcount',
    'reward',
    'tips',
    'timestamp',
  ])
    t.ok(field in last.block_header, `header has ${field}`);
  t.equal(last.block_header.hash, blids[9]);
  t.equal(last.block_header.reward, 61500);
  t.same(last.block_header.tips, [blids[8]]);
  const byHash = await call(url, 'NODE.GetBlockHeaderByHash', { hash: blids[4] });
  t.equal(byHash.block_header.topoheight, 5);
  t.equal(byHash.block_header.depth, 5);
  const block = await call(url, 'NODE.GetBlock', { height: 5 });
  t.equal(block.block_header.hash, blids[4]);
  const json = JSON.parse(block.json);
  t.equal(json.miniblocks.length, 10);
  t.equal(json.miner_tx.miner_address.length, 33);
  t.equal(json.miner_tx.txtype, 2);
  t.same((await call(url, 'NODE.GetBlock', { hash: blids[4] })).blob, block.blob);
  await t.rejects(call(url, 'NODE.GetBlock', { hash: '00'.repeat(32) }), /unknown block hash/);
  await t.rejects(
    call(url, 'NODE.GetBlockHeaderByTopoHeight', { topoheight: 11 }),
    /above the chain's top topoheight 10/,
  );
  await t.rejects(call(url, 'NODE.GetBlockHeaderByHash', { hash: 'xyz' }), {
    code: -32602,
    message: /'hash' must be 64 hexadecimal characters/,
  });
  await t.rejects(call(url, 'NODE.GetBlockHeaderByTopoHeight', { topoheight: -1 }), { code: -32602 });
  t.ok(pushed.includes('Block') && pushed.includes('Height'), 'Block and Height were pushed over WebSocket');
  ws.close();

  daemon.child.kill('SIGTERM');
  t.equal(await daemon.exited, 0);
  ({ daemon, url } = await startDaemon(t, 'simulator', dataDir));
  t.equal((await call(url, 'NODE.GetInfo')).top_block_hash, blids[9], 'the same chain after a restart');
  t.equal((await call(url, 'NODE.GetInfo')).treehash, info.treehash);
});

t.test('a competing heavier branch reorganises every RPC view', async (t) => {
  const a = await startDaemon(t, 'simulator', mkdtempSync(join(tmpdir(), 'umbra-e2e-a-')));
  const b = await startDaemon(t, 'simulator', mkdtempSync(join(tmpdir(), 'umbra-e2e-b-')));
  const aBlocks = [await mineOne(a.url, simulatorAddress), await mineOne(a.url, simulatorAddress)];
  for (let i = 0; i < 3; i++) await mineOne(b.url, simulatorAddress);
  for (let height = 1; height <= 3; height++) {
    const { blob } = await call(b.url, 'NODE.GetBlock', { height });
    await call(a.url, 'NODE.SubmitBlock', { block_blob: blob });
  }
  const infoA = await call(a.url, 'NODE.GetInfo');
  const infoB = await call(b.url, 'NODE.GetInfo');
  t.equal(infoA.top_block_hash, infoB.top_block_hash, 'a now follows b');
  t.equal(infoA.treehash, infoB.treehash, 'identical state roots');
  t.equal(infoA.height, 3);
  const old = await call(a.url, 'NODE.GetBlockHeaderByHash', { hash: aBlocks[1] });
  t.equal(old.block_header.sideblock, true, 'the replaced block is a side block');
  t.equal(old.block_header.topoheight, -1);
  t.equal(
    (await call(a.url, 'NODE.GetBlockHeaderByTopoHeight', { topoheight: 2 })).block_header.hash,
    (await call(b.url, 'NODE.GetBlockHeaderByTopoHeight', { topoheight: 2 })).block_header.hash,
  );
  await t.rejects(call(a.url, 'NODE.SubmitBlock', { block_blob: '00' }), /block rejected: malformed block/);
});

t.test('SIGKILL while the miner writes blocks leaves a consistent chain', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'umbra-e2e-kill-'));
  const first = await startDaemon(t, 'simulator', dataDir, [
    '--mining-threads',
    '1',
    '--mining-address',
    simulatorAddress,
  ]);
  await first.daemon.waitFor(/found block [0-9a-f]{64} at height 5\b/, 60_000);
  first.daemon.child.kill('SIGKILL');
  await first.daemon.exited;
  const again = await startDaemon(t, 'simulator', dataDir);
  const info = await call(again.url, 'NODE.GetInfo');
  t.ok(info.height >= 5, `the chain kept its blocks (height ${info.height})`);
  const top = await call(again.url, 'NODE.GetBlock', { hash: info.top_block_hash });
  t.equal(JSON.parse(top.json).state_root, info.treehash, 'the top block commits to the state root the node reports');
  await mineOne(again.url, simulatorAddress);
  t.equal((await call(again.url, 'NODE.GetInfo')).height, info.height + 1, 'and it keeps growing');
});

t.test('the built-in miner mines at testnet difficulty, with a hash-rate log line', async (t) => {
  const testnetAddress = encodeAddress('testnet', premineKey(core, 'testnet'));
  const { daemon, url } = await startDaemon(t, 'testnet', mkdtempSync(join(tmpdir(), 'umbra-e2e-testnet-')), [
    '--mining-threads',
    '1',
    '--mining-address',
    testnetAddress,
  ]);
  await daemon.waitFor(/found block [0-9a-f]{64} at height 1\b/, 240_000);
  const info = await call(url, 'NODE.GetInfo');
  t.ok(info.height >= 1);
  t.equal(info.difficulty >= 50, true, 'testnet difficulty');
  t.match(daemon.log(), /built-in miner started on 1 thread/);
  await daemon.waitFor(/mining on 1 thread\(s\): [\d.]+ H\/s/, 30_000);
});
