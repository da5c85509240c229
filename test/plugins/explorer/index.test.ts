/**
 * The explorer over real HTTP on an in-process simulator daemon: after a registration, a transfer, a contract install,
 * a failing call and a name registration, every page shows them as HTML and as exact JSON; search redirects to the
 * right page; bad input is a 404 page in our words (JSON error with ?format=json); login and turning it off.
 */
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../../core-native/ts/scalar.js';
import { DAEMON_PLUGINS } from '../../../host/config/defaults.js';
import { encodeAddress } from '../../../protocol/address.js';
import { parseExactJson } from '../../../protocol/exact-json.js';
import { formatCoins } from '../../../protocol/coin-amount.js';
import { hashRateText } from '../../../protocol/hash-rate.js';
import { NAME_SERVICE_SCID } from '../../../protocol/name-service.js';
import { toHex } from '../../../protocol/bytes.js';
import { premineKey, premineSecret } from '../../../protocol/premine.js';
import { callArgs, installArgs } from '../../../wallet/contract-args.js';
import { NATIVE_ASSET } from '../../../wallet/wallet-constants.js';
import { rpcCall, startTestApp } from '../../helpers/app.js';
import { VAULT_CONTRACT } from '../../helpers/vault-contract.js';
import { mineSpaced } from '../../helpers/chain.js';
import { autoMine, mined, testWallet } from '../../helpers/wallet-app.js';

const core = await loadCore();

/** GETs an explorer path: status, content type, location and body (parsed exactly when JSON). */
async function get(base: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { headers, redirect: 'manual' });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    type,
    location: response.headers.get('location'),
    text,
    json: type.startsWith('application/json') ? (parseExactJson(text) as any) : undefined,
  };
}

t.test('the explorer on a simulator chain', async (t) => {
  const { url } = await startTestApp(t, { network: 'simulator' });
  const premineAddress = encodeAddress('simulator', premineKey(core, 'simulator'));
  const mining = autoMine(t, url, premineAddress);
  const premine = testWallet(core, 'simulator', premineSecret(core, 'simulator'), url);
  const alice = testWallet(core, 'simulator', bigintToBytes32BE(randomScalar()), url);
  await alice.registration.ensure();
  const transfer = await premine.transfers.send({
    transfers: [{ destination: alice.address, amount: 5000n, scid: NATIVE_ASSET, burn: 0n, payloadRpc: [] }],
    ringSize: 2,
  });
  await mined(url);
  const scid = await premine.transfers.send({ transfers: [], ringSize: 2, scRpc: installArgs(VAULT_CONTRACT) });
  await mined(url);
  const withdraw = [{ name: 'entrypoint', datatype: 'S' as const, value: 'Withdraw' }];
  const failing = await premine.transfers.send({
    transfers: [],
    ringSize: 2,
    scRpc: callArgs(scid, withdraw),
    force: true,
  });
  await mined(url);
  const register = [
    { name: 'entrypoint', datatype: 'S' as const, value: 'Register' },
    { name: 'name', datatype: 'S' as const, value: 'alice-explorer' },
  ];
  await alice.transfers.send({ transfers: [], ringSize: 2, scRpc: callArgs(toHex(NAME_SERVICE_SCID), register) });
  await mined(url);
  const info = await rpcCall(url, 'NODE.GetInfo');

  await t.test('home: the figures, the last blocks and the chart series (genesis has no interval)', async (t) => {
    const page = await get(url, '/explorer/');
    t.equal(page.status, 200);
    t.match(page.type, /^text\/html/);
    t.match(page.text, `<span id="height">${info.height}</span>`);
    t.match(
      page.text,
      `<a class="hash" href="/explorer/block/${info.top_block_hash}" title="${info.top_block_hash}">${info.top_block_hash.slice(0, 8)}…${info.top_block_hash.slice(-8)}</a>`,
      'a block hash shortened in the middle, whole in its title',
    );
    t.match(page.text, `data-copy="${info.top_block_hash}" data-what="block hash" aria-label="Copy the block hash"`);
    t.match(
      page.text,
      `<dt>Supply</dt><dd><span class="amount" title="${BigInt(info.total_supply) * 100_000n} atomic units">${info.total_supply}.00000 UMB</span>`,
    );
    t.match(page.text, '/explorer/assets/uPlot.iife.min.js');
    const { json } = await get(url, '/explorer/?format=json');
    t.equal(json.height, info.height);
    t.equal(json.topHash, info.top_block_hash);
    t.equal(json.blocks.length, Math.min(20, info.height + 1));
    t.equal(json.blocks[0].height, info.height, 'newest first');
    t.same(
      json.charts.height,
      Array.from({ length: info.height }, (_, i) => i + 1),
      'every mined block, from 1',
    );
    t.equal(json.charts.blockTimeS[0], null, "block 1's interval would count genesis' timestamp 0");
    t.ok(
      json.charts.blockTimeS.slice(1).every((s: number) => s >= 0 && s < 3600),
      'intervals between mined blocks',
    );
    t.equal(
      json.charts.txcount.reduce((a: number, b: number) => a + b, 0),
      info.tx_count,
    );
    t.ok(json.averageBlockTimeS >= 0 && json.averageBlockTimeS < 3600);
    t.equal(json.supplyCoins, info.total_supply);
    t.equal(json.poolSize, 0);
    t.equal(json.hashrate, null, 'the simulator mines on demand: no hash rate');
    t.notMatch(page.text, /hash rate/i);
  });

  await t.test('block by height and by hash: header, miniblocks, transactions, parent and child', async (t) => {
    const txRecord = (await rpcCall(url, 'NODE.GetTransaction', { txs_hashes: [transfer] })).txs[0];
    const byHeight = await get(url, `/explorer/block/${txRecord.block_height}?format=json`);
    t.equal(byHeight.status, 200);
    t.equal(byHeight.json.header.hash, txRecord.valid_block);
    t.equal(byHeight.json.miniblocks.length, 10);
    t.equal(byHeight.json.miniblocks.filter((mb: any) => mb.final).length, 1);
    t.ok(byHeight.json.transactions.some((tx: any) => tx.txid === transfer && tx.type === 'transfer'));
    t.equal(byHeight.json.minerTx.type, 'coinbase');
    const html = await get(url, `/explorer/block/${txRecord.valid_block}`);
    t.equal(html.status, 200);
    t.match(html.text, `<h1>Block ${txRecord.block_height}</h1>`);
    t.match(html.text, `href="/explorer/tx/${transfer}"`);
    t.match(html.text, `href="/explorer/block/${byHeight.json.header.tips[0]}">← parent</a>`);
    t.match(html.text, `href="/explorer/block/${byHeight.json.child}">child →</a>`);
    const genesis = await get(url, '/explorer/block/0?format=json');
    t.same(genesis.json.miniblocks, []);
    t.equal(genesis.json.minerTx.type, 'premine');
  });

  await t.test('transaction: type, size, fee, ring as addresses, proof size, block', async (t) => {
    const { json, status } = await get(url, `/explorer/tx/${transfer}?format=json`);
    t.equal(status, 200);
    t.equal(json.type, 'transfer');
    t.ok(json.size > 1000 && json.fee > 0 && json.proofBytes > 1000);
    t.same(json.rings[0].sort(), [alice.address, premineAddress].sort(), 'a ring of 2, as addresses');
    t.equal(json.payloads[0].scid, '0'.repeat(64));
    t.equal(json.block.hash.length, 64);
    const page = await get(url, `/explorer/tx/${transfer}`);
    t.match(page.text, `href="/explorer/address/${alice.address}"`);
    t.match(
      page.text,
      `<dt>Fee</dt><dd><span class="amount" title="${json.fee} atomic units">${formatCoins(BigInt(json.fee))} UMB</span>`,
      'the fee in coins, its atomic units in the title',
    );
    const registration = (await get(url, `/explorer/address/${alice.address}?format=json`)).json.registration;
    const block = (await get(url, `/explorer/block/${registration}?format=json`)).json;
    const registers = block.transactions.find((tx: any) => tx.type === 'registration');
    t.ok(registers, "a registration in the block of alice's registration");
    const registered = await get(url, `/explorer/tx/${registers.txid}?format=json`);
    t.equal(registered.json.account, alice.address, 'a registration names the account it registers');
    t.match(page.text, 'UMB (native)');
  });

  await t.test('a failing call: its arguments and outcome', async (t) => {
    const { json } = await get(url, `/explorer/tx/${failing}?format=json`);
    t.equal(json.type, 'contract');
    t.match(json.contract, { kind: 'call', scid, entrypoint: 'Withdraw' });
    t.match(json.outcome, { status: 'failed', line: 20 });
    const page = await get(url, `/explorer/tx/${failing}`);
    t.match(page.text, /class="outcome-failed">failed at line 20: PANIC/);
  });

  await t.test('contract: code, variables, installs and calls with outcomes', async (t) => {
    const { json } = await get(url, `/explorer/contract/${scid}?format=json`);
    t.equal(json.code, VAULT_CONTRACT);
    t.same(json.variables, { owner: Buffer.from('someone else').toString('hex') });
    t.same(
      json.activity.map((a: any) => [a.txid, a.action.kind, a.outcome.status]),
      [
        [failing, 'call', 'failed'],
        [scid, 'install', 'committed'],
      ],
    );
    const page = await get(url, `/explorer/contract/${scid}`);
    t.match(page.text, '&quot;someone else&quot;', 'a printable String variable shown as text, escaped');
    t.match(page.text, 'STORE(&quot;owner&quot;, &quot;someone else&quot;)', 'the code, escaped');
  });

  await t.test(
    'address: registration, names, rings, calls signed with a ring of 2, the encrypted balance',
    async (t) => {
      const { json } = await get(url, `/explorer/address/${alice.address}?format=json`);
      t.equal(json.registered, true);
      t.ok(json.registration > 0);
      t.match(json.encryptedBalance, /^[0-9a-f]{130,}$/);
      t.same(json.names, ['alice-explorer'], 'the name she registered');
      t.match(
        json.rings.find((ring: any) => ring.txid === transfer),
        { type: 'transfer', ringSizes: [2], sender: 'the other member' },
        'in the ring of the transfer she received',
      );
      t.match(json.signedCalls, [
        {
          action: { kind: 'call', scid: toHex(NAME_SERVICE_SCID), entrypoint: 'Register' },
          outcome: { status: 'committed' },
        },
      ]);
      const premine = (await get(url, `/explorer/address/${premineAddress}?format=json`)).json;
      t.match(
        premine.rings.find((ring: any) => ring.txid === transfer),
        { sender: 'this account' },
        'a ring of 2 shows its sender',
      );
      t.same(
        premine.signedCalls.map((call: any) => [call.txid, call.action.kind, call.outcome.status]),
        [
          [failing, 'call', 'failed'],
          [scid, 'install', 'committed'],
        ],
      );
      const html = await get(url, `/explorer/address/${alice.address}`);
      t.match(html.text, "only the account's wallet can read the amount");
      t.match(html.text, '<span id="names">alice-explorer</span>');
      t.match(html.text, 'Rings it is in, over the last 5000 blocks');
      t.match(html.text, 'Being in a ring does not mean sending or receiving');
      const stranger = testWallet(core, 'simulator', bigintToBytes32BE(randomScalar()), url).address;
      const unregistered = await get(url, `/explorer/address/${stranger}?format=json`);
      t.equal(unregistered.status, 200, 'a valid address that is not registered is shown as such');
      t.same(unregistered.json, { address: stranger, registered: false });
    },
  );

  await t.test(
    'search: height, block hash, txid, SCID, address, registered name; nothing found is a 404',
    async (t) => {
      const found = async (q: string) => (await get(url, `/explorer/search?q=${encodeURIComponent(q)}`)).location;
      t.equal(await found('1'), '/explorer/block/1');
      t.equal(await found(` ${info.top_block_hash.toUpperCase()} `), `/explorer/block/${info.top_block_hash}`);
      t.equal(await found(transfer), `/explorer/tx/${transfer}`);
      t.equal(await found(scid), `/explorer/contract/${scid}`, "a SCID (its install's txid) finds the contract");
      t.equal(await found(toHex(NAME_SERVICE_SCID)), `/explorer/contract/${toHex(NAME_SERVICE_SCID)}`);
      t.equal(await found(alice.address), `/explorer/address/${alice.address}`);
      t.equal(await found('alice-explorer'), `/explorer/address/${alice.address}`);
      t.equal(
        (await get(url, '/explorer/search?q=1&format=json')).location,
        '/explorer/block/1?format=json',
        'format=json is kept',
      );
      const nothing = await get(url, '/explorer/search?q=nobody-by-that-name');
      t.equal(nothing.status, 404);
      t.match(nothing.text, 'is not a height, hash, address or registered name on this chain');
      const past = await get(url, '/explorer/search?q=999999&format=json');
      t.same(past.json, {
        error: { code: 'explorer.not-found', message: `height 999999 is past the top of the chain (${info.height})` },
      });
    },
  );

  await t.test('pool: what waits, with type, size and fee; its transaction page says it waits', async (t) => {
    t.same((await get(url, '/explorer/pool?format=json')).json, { size: 0, transactions: [] });
    t.match((await get(url, '/explorer/pool')).text, '0 transactions waiting');
    mining.paused = true;
    const waiting = await alice.transfers.send({
      transfers: [{ destination: premineAddress, amount: 7n, scid: NATIVE_ASSET, burn: 0n, payloadRpc: [] }],
      ringSize: 2,
    });
    const { json } = await get(url, '/explorer/pool?format=json');
    t.equal(json.size, 1);
    t.match(json.transactions, [{ txid: waiting, type: 'transfer' }]);
    t.ok(json.transactions[0].fee > 0);
    t.match((await get(url, '/explorer/pool')).text, `href="/explorer/tx/${waiting}"`);
    t.match((await get(url, `/explorer/?format=json`)).json, { poolSize: 1 }, 'home sees the pool change');
    const pending = await get(url, `/explorer/tx/${waiting}`);
    t.match(pending.text, 'waiting in the pool');
    t.equal((await get(url, `/explorer/search?q=${waiting}`)).location, `/explorer/tx/${waiting}`);
    mining.paused = false;
    await mined(url);
  });

  await t.test('bad input is a 404 page in our words, never a stack trace', async (t) => {
    for (const [path, message] of [
      ['/explorer/block/999999', 'height 999999 is past the top of the chain'],
      ['/explorer/block/' + 'ab'.repeat(32), 'unknown block hash'],
      ['/explorer/block/12x', 'is neither a block height nor a block hash'],
      ['/explorer/tx/' + 'cd'.repeat(32), 'no transaction'],
      ['/explorer/tx/xyz', 'is not a transaction id'],
      ['/explorer/contract/' + 'ef'.repeat(32), 'no contract'],
      ['/explorer/address/umbt1notanaddress', 'is not an address of this network'],
      ['/explorer/nowhere', 'no explorer page'],
      ['/explorer/block/', 'no explorer page'],
      ['/explorer/block/%E0%A4%A', 'is not a valid path'],
      ['/explorer/assets/missing.js', 'no explorer asset'],
    ] as [string, string][]) {
      const page = await get(url, path);
      t.equal(page.status, 404, path);
      t.match(page.type, /^text\/html/, path);
      t.match(page.text, message, path);
      t.notMatch(page.text, /\bat .*\.js:\d+/, `${path}: no stack trace`);
      const json = await get(url, `${path}?format=json`);
      t.equal(json.json?.error?.code, 'explorer.not-found', `${path} as JSON`);
    }
  });

  await t.test('assets come from the package; /explorer redirects to /explorer/', async (t) => {
    const uplot = await get(url, '/explorer/assets/uPlot.iife.min.js');
    t.equal(uplot.status, 200);
    t.match(uplot.type, /^text\/javascript/);
    t.match(uplot.text, /uPlot/);
    t.match((await get(url, '/explorer/assets/explorer.css')).type, /^text\/css/);
    const bare = await get(url, '/explorer');
    t.equal(bare.status, 301);
    t.equal(bare.location, '/explorer/');
  });
});

t.test('behind --rpc-login, and off when left out of plugins', async (t) => {
  const guarded = await startTestApp(t, { network: 'simulator', rpcLogin: 'alice:s3cret' });
  t.equal((await get(guarded.url, '/explorer/')).status, 401);
  const auth = { Authorization: 'Basic ' + Buffer.from('alice:s3cret').toString('base64') };
  t.equal((await get(guarded.url, '/explorer/', auth)).status, 200);
  const without = await startTestApp(t, {
    network: 'simulator',
    plugins: DAEMON_PLUGINS.filter((name) => name !== 'explorer'),
  });
  const off = await get(without.url, '/explorer/');
  t.equal(off.status, 404);
  t.match(off.text, 'no such path: /explorer/');
});

t.test("the hash rate on a testnet home: GetInfo's over the hour up to the top block, said so", async (t) => {
  const { app, url } = await startTestApp(t);
  await mineSpaced(app, 4, 1000n);
  const { hashrate_1hr } = await rpcCall(url, 'NODE.GetInfo');
  t.ok(hashrate_1hr > 0);
  t.equal((await get(url, '/explorer/?format=json')).json.hashrate, hashrate_1hr);
  t.match(
    (await get(url, '/explorer/')).text,
    `<span id="hashrate">${hashRateText(hashrate_1hr)} (accepted miniblocks&#39; difficulty over the hour up to the top block)</span>`,
  );
});
