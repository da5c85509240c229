/**
 * The `metrics` plugin end to end: a simulator daemon's and a wallet RPC server's `/metrics`, scraped and read with a
 * Prometheus text-format parser — every metric present, and moving when blocks are mined, RPC methods are called and
 * a transfer goes through the pool — and their `/health`, behind `--rpc-login` like the other routes.
 */
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { bigintToBytes32BE } from '../../../core-native/ts/bigint-bytes.js';
import { loadCore } from '../../../core-native/ts/index.js';
import { randomScalar } from '../../../core-native/ts/scalar.js';
import { composeWalletApp } from '../../../cli/wallet-app.js';
import { createLogger } from '../../../host/logger.js';
import { UMBRA_VERSION } from '../../../host/version.js';
import { encodeAddress } from '../../../protocol/address.js';
import { premineKey, premineSecret } from '../../../protocol/premine.js';
import { mineOneViaRpc, postRpc, rpcCall, startTestApp } from '../../helpers/app.js';
import { histogramCount, histogramLabels, scrape, sampleValue } from '../../helpers/prometheus.js';
import { autoMine, mined, testWallet, walletRpc } from '../../helpers/wallet-app.js';

const core = await loadCore();

const DAEMON_METRICS = [
  'umbra_build_info',
  'umbra_chain_height',
  'umbra_chain_topoheight',
  'umbra_chain_stable_height',
  'umbra_chain_difficulty',
  'umbra_block_apply_seconds',
  'umbra_mempool_transactions',
  'umbra_mempool_bytes',
  'umbra_peers',
  'umbra_rpc_requests_total',
  'umbra_rpc_errors_total',
  'umbra_rpc_request_seconds',
  'umbra_miner_hashrate',
];
const DEFAULTS = ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes'];

const health = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${url}/health`, { headers });
  return { status: response.status, body: await response.json() };
};

t.test('a daemon serves its metrics, and they move with the chain, the pool and RPC calls', async (t) => {
  const daemon = await startTestApp(t, { network: 'simulator' });
  const premineAddress = encodeAddress('simulator', premineKey(core, 'simulator'));

  const first = await scrape(daemon.url);
  for (const name of [...DAEMON_METRICS, ...DEFAULTS]) t.ok(first.families.has(name), `${name} is served`);
  t.equal(first.families.get('umbra_block_apply_seconds')?.type, 'HISTOGRAM');
  t.equal(first.families.get('umbra_rpc_requests_total')?.type, 'COUNTER');
  t.equal(sampleValue(first, 'umbra_chain_height'), 0, 'a fresh simulator chain is at height 0');
  t.equal(sampleValue(first, 'umbra_peers', { direction: 'inbound' }), 0);
  t.equal(sampleValue(first, 'umbra_peers', { direction: 'outbound' }), 0);
  t.equal(sampleValue(first, 'umbra_miner_hashrate'), 0, 'no built-in miner runs');
  t.equal(sampleValue(first, 'umbra_chain_difficulty'), (await rpcCall(daemon.url, 'NODE.GetInfo')).difficulty);
  t.equal(
    sampleValue(first, 'umbra_build_info', { version: UMBRA_VERSION, network: 'simulator', crypto: core.impl }),
    1,
    'the build: version, network and cryptography',
  );
  t.equal(sampleValue(first, 'umbra_chain_stable_height'), 0);

  await t.test('failed RPC calls count by method and JSON-RPC error code', async (t) => {
    const before = await scrape(daemon.url);
    const errors = (s: typeof before, method: string, code: number) =>
      sampleValue(s, 'umbra_rpc_errors_total', { method, code: String(code) }) ?? 0;
    await rpcCall(daemon.url, 'NODE.GetInfo');
    await t.rejects(rpcCall(daemon.url, 'NODE.NoSuchMethod'));
    await t.rejects(rpcCall(daemon.url, 'NODE.GetBlockHeaderByTopoHeight', { topoheight: 'x' }));
    await t.rejects(rpcCall(daemon.url, 'NODE.GetBlockHeaderByTopoHeight', { topoheight: 99 }));
    const after = await scrape(daemon.url);
    t.equal(errors(after, 'unknown', -32601) - errors(before, 'unknown', -32601), 1, 'method not found');
    t.equal(
      errors(after, 'NODE.GetBlockHeaderByTopoHeight', -32602) -
        errors(before, 'NODE.GetBlockHeaderByTopoHeight', -32602),
      1,
      'invalid params',
    );
    t.equal(
      errors(after, 'NODE.GetBlockHeaderByTopoHeight', -32098) -
        errors(before, 'NODE.GetBlockHeaderByTopoHeight', -32098),
      1,
      'an application error',
    );
    t.notOk(
      after.families.get('umbra_rpc_errors_total')!.metrics.some((m) => m.labels?.['method'] === 'NODE.GetInfo'),
      'a call that succeeds is no error',
    );
  });

  await t.test('RPC calls count under their canonical method, unknown names under "unknown"', async (t) => {
    const before = await scrape(daemon.url);
    const calls = (s: typeof before, method: string) => sampleValue(s, 'umbra_rpc_requests_total', { method }) ?? 0;
    await rpcCall(daemon.url, 'getinfo');
    await rpcCall(daemon.url, 'NODE.GetInfo');
    await t.rejects(rpcCall(daemon.url, 'NODE.NoSuchMethod'));
    await t.rejects(rpcCall(daemon.url, 'another-made-up-name'));
    const after = await scrape(daemon.url);
    t.equal(calls(after, 'NODE.GetInfo') - calls(before, 'NODE.GetInfo'), 2, 'an alias counts as its method');
    t.equal(calls(after, 'unknown') - calls(before, 'unknown'), 2);
    t.notOk(after.text.includes('NoSuchMethod'), 'names clients make up never become labels');
    t.equal(
      histogramCount(after, 'umbra_rpc_request_seconds', { method: 'NODE.GetInfo' }),
      calls(after, 'NODE.GetInfo'),
      'every counted call is timed',
    );
  });

  await t.test('a mined block moves the height and the block-apply histogram', async (t) => {
    const before = await scrape(daemon.url);
    await mineOneViaRpc(daemon.url, premineAddress);
    const after = await scrape(daemon.url);
    t.equal(sampleValue(after, 'umbra_chain_height'), sampleValue(before, 'umbra_chain_height')! + 1);
    t.equal(sampleValue(after, 'umbra_chain_topoheight'), sampleValue(after, 'umbra_chain_height'));
    t.equal(
      histogramCount(after, 'umbra_block_apply_seconds'),
      histogramCount(before, 'umbra_block_apply_seconds') + 1,
    );
  });

  await t.test('a transfer shows in the pool and in the verify histogram by ring size', async (t) => {
    const mining = autoMine(t, daemon.url, premineAddress);
    const premine = testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url);
    const alice = testWallet(core, 'simulator', bigintToBytes32BE(randomScalar()), daemon.url);
    await alice.registration.ensure();
    await mined(daemon.url);
    mining.paused = true;
    const before = await scrape(daemon.url);
    const item = { destination: alice.address, amount: 5000n, scid: '0'.repeat(64), burn: 0n, payloadRpc: [] };
    await premine.transfers.send({ transfers: [item], ringSize: 2 });
    const pending = await scrape(daemon.url);
    t.equal(sampleValue(pending, 'umbra_mempool_transactions'), 1);
    const { txs } = await rpcCall(daemon.url, 'NODE.GetTxPool');
    t.equal(txs.length, 1);
    t.ok(sampleValue(pending, 'umbra_mempool_bytes')! > 1000, 'the pool holds the transfer bytes');
    t.same(histogramLabels(pending, 'umbra_tx_verify_seconds', 'ring'), ['2'], 'labelled with its ring size');
    t.equal(
      histogramCount(pending, 'umbra_tx_verify_seconds', { ring: '2' }) -
        histogramCount(before, 'umbra_tx_verify_seconds', { ring: '2' }),
      1,
    );
    mining.paused = false;
    await mined(daemon.url);
    const after = await scrape(daemon.url);
    t.equal(sampleValue(after, 'umbra_mempool_transactions'), 0);
    t.equal(sampleValue(after, 'umbra_mempool_bytes'), 0);
  });

  t.same(await health(daemon.url), {
    status: 200,
    body: { status: 'ok', height: Number((await rpcCall(daemon.url, 'NODE.GetHeight')).height), synced: true },
  });
});

t.test('/metrics and /health are behind --rpc-login and answer GET only', async (t) => {
  const daemon = await startTestApp(t, { network: 'simulator', rpcLogin: 'user:pass' });
  t.equal((await fetch(`${daemon.url}/metrics`)).status, 401);
  t.equal((await fetch(`${daemon.url}/health`)).status, 401);
  const login = { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` };
  t.ok((await scrape(daemon.url, login)).families.has('umbra_chain_height'));
  t.equal((await health(daemon.url, login)).status, 200);
  const posted = await fetch(`${daemon.url}/metrics`, { method: 'POST', headers: login });
  t.equal(posted.status, 405);
  t.equal(await posted.text(), 'use GET for /metrics\n');
  t.equal((await fetch(`${daemon.url}/health`, { method: 'POST', headers: login })).status, 405);
});

t.test('a wallet RPC server serves its sync metrics, and /health says whether it caught up', async (t) => {
  const daemon = await startTestApp(t, { network: 'simulator' });
  const premineAddress = encodeAddress('simulator', premineKey(core, 'simulator'));
  await mineOneViaRpc(daemon.url, premineAddress);
  const wallet = testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url);
  const app = await composeWalletApp(wallet, { rpcBind: '127.0.0.1:0', logger: createLogger('error', () => {}) });
  await app.start();
  t.teardown(() => app.stop());
  const url = `http://127.0.0.1:${(app.container.cradle.httpServers.get('wallet')!.address() as AddressInfo).port}`;

  const first = await scrape(url);
  for (const name of ['umbra_build_info', 'umbra_wallet_height', 'umbra_wallet_sync_seconds', ...DEFAULTS])
    t.ok(first.families.has(name), `${name} is served`);
  t.notOk(first.families.has('umbra_chain_height'), 'a wallet has no chain of its own');
  t.equal(histogramCount(first, 'umbra_wallet_sync_seconds'), 0, 'no sync yet');

  t.same(
    await health(url),
    { status: 200, body: { status: 'ok', height: 1, synced: true } },
    'idle and never asked: it catches up and is healthy',
  );
  t.equal(histogramCount(await scrape(url), 'umbra_wallet_sync_seconds'), 1, 'the health check synced it');

  await walletRpc(url, 'GetBalance');
  const synced = await scrape(url);
  t.equal(sampleValue(synced, 'umbra_wallet_height'), 1);
  t.equal(sampleValue(synced, 'umbra_rpc_requests_total', { method: 'GetBalance' }), 1);

  await mineOneViaRpc(daemon.url, premineAddress);
  t.same(
    (await health(url)).body,
    { status: 'ok', height: 2, synced: true },
    'a new block: caught up before the answer',
  );
  t.equal(sampleValue(await scrape(url), 'umbra_wallet_height'), 2);

  await daemon.app.stop();
  t.same(await health(url), { status: 503, body: { status: 'daemon-unreachable', height: 2, synced: false } });
  t.equal((await postRpc(url, { jsonrpc: '2.0', id: 1, method: 'GetHeight' })).status, 200, 'the wallet still serves');
});
