/**
 * The connection endpoint end to end: a real WalletService on a real `umbra simulator`, the endpoint behind an HTTP
 * server of the test's, and web apps as `ws` clients. Connect (asked, approved, kept in the wallet file), the address,
 * a signed message that verifies, a transfer approved and mined, one denied that sends nothing, a call whose trial
 * fails shown as failing, a timed-out request, a revoked origin refused, and what a broken or greedy client gets.
 */
import t from 'tap';
import { loadCore } from '../../../../core-native/ts/index.js';
import { schnorrVerify } from '../../../../core-native/ts/schnorr.js';
import { decodeAddress } from '../../../../protocol/address.js';
import { fromHex } from '../../../../protocol/bytes.js';
import { NETWORKS } from '../../../../protocol/network.js';
import { simulatorWalletSecret } from '../../../../cli/simulator-command.js';
import { DappErrorCode } from '../../../../plugins/web-wallet/dapp/dapp-error.js';
import { walletFilePermissions } from '../../../../plugins/web-wallet/dapp/permission-store.js';
import { WalletFile } from '../../../../wallet/wallet-file.js';
import { walletKeys } from '../../../../wallet/wallet-keys.js';
import { rpcCall } from '../../../helpers/app.js';
import { startWalletSimulator } from '../../../helpers/wallet-simulator.js';
import { asking, DappClient, nextRequest, serveEndpoint, simulatorWallet } from './dapp-fixture.js';

const core = await loadCore();
const simulator = await startWalletSimulator(t, 'umbra-dapp-', 2);
const { wallet, file } = await simulatorWallet(core, simulator, 0);
t.teardown(() => wallet.close());
const receiver = walletKeys(core, 'simulator', simulatorWalletSecret(core, 1)).address;
const { endpoint, url } = await serveEndpoint(t, core, wallet, file, { maxPendingPerOrigin: 2 });
const { approvals } = endpoint;
const ORIGIN = 'https://lottery.example';

// A test that fails half-way must not leave its requests taking the origin's places in the next.
t.afterEach(() => {
  for (const { id } of approvals.pending()) approvals.deny(id);
});

/** Waits until the daemon has the transaction in a block; its height. */
async function minedAt(txid: string): Promise<number> {
  for (;;) {
    const record = await wallet.daemon.getTransaction(txid);
    if (record.valid_block !== '') return record.block_height;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A connection of `origin` that asked to connect and was let in. */
async function connected(origin = ORIGIN): Promise<DappClient> {
  const client = await DappClient.open(t, url, origin);
  const asked = approvals.permissions().some((permission) => permission.origin === origin)
    ? undefined
    : nextRequest(approvals);
  const answer = client.call('connect', { name: 'Lottery' });
  if (asked) await approvals.approve((await asked).id);
  t.same((await answer).result, { connected: true, origin, wallet: 'test wallet' });
  return client;
}

t.test('connect asks the user, then the address is given once approved', async (t) => {
  const client = await DappClient.open(t, url, ORIGIN);
  t.equal((await client.call('getAddress')).error?.code, DappErrorCode.NotPermitted, 'nothing before connect');

  const { request, answer } = await asking(approvals, client, 'connect', { name: 'Lottery' });
  t.match(request, { kind: 'connect', origin: ORIGIN, name: 'Lottery', details: { origin: ORIGIN } });
  t.match(request.summary, `"Lottery" at ${ORIGIN} ask for your address`);
  await approvals.approve(request.id);
  t.same((await answer).result, { connected: true, origin: ORIGIN, wallet: 'test wallet' });
  t.match(approvals.permissions(), [{ origin: ORIGIN, name: 'Lottery' }]);
  const reopened = await WalletFile.open(file.path, 'pw');
  t.match(walletFilePermissions(reopened).load(), [{ origin: ORIGIN, name: 'Lottery' }], 'kept in the wallet file');

  const address = await asking(approvals, client, 'getAddress');
  t.equal(address.request.kind, 'address');
  await approvals.approve(address.request.id);
  t.same((await address.answer).result, { address: wallet.address });

  const again = await DappClient.open(t, url, ORIGIN);
  const reconnect = await again.call('connect', { name: 'Lottery again' });
  t.same(reconnect.result, { connected: true, origin: ORIGIN, wallet: 'test wallet' }, 'a known origin is not asked');
});

t.test('a signed message verifies against the address', async (t) => {
  const client = await connected();
  const { request, answer } = await asking(approvals, client, 'signMessage', {
    message: 'I enter the lottery\nround 7',
  });
  t.equal(request.summary, `sign the message "I enter the lottery\\nround 7" as ${wallet.address}`);
  await approvals.approve(request.id);
  const { result } = await answer;
  t.equal(result.address, wallet.address);
  const { G } = core.generators(NETWORKS.simulator.generatorDomain);
  const Y = core.g1Decompress(decodeAddress(wallet.address).publicKey);
  const signature = { c: fromHex(result.signature.slice(0, 64), 32), s: fromHex(result.signature.slice(64), 32) };
  const message = new TextEncoder().encode('I enter the lottery\nround 7');
  t.ok(schnorrVerify(core, G, Y, signature, message), 'verifies');
  t.notOk(schnorrVerify(core, G, Y, signature, new TextEncoder().encode('I enter the lottery')), 'only that message');
});

t.test('a transfer is sent only once approved, and mined', async (t) => {
  const client = await connected();
  const before = await wallet.balance();
  const { request, answer } = await asking(approvals, client, 'transfer', {
    destination: receiver,
    amount: '1234',
    ring: 2,
  });
  t.equal(request.kind, 'transfer');
  t.match(request.summary, new RegExp(`^send 0\\.01234 UMB to ${receiver} \\(ring 2, fee \\d+\\.\\d{5} UMB\\)$`));
  t.match(request.details, { destination: receiver, address: receiver, amount: '1234', ring: '2' });
  t.same((await rpcCall(simulator.daemonUrl, 'NODE.GetTxPool')).txs, [], 'nothing sent while asking');
  await approvals.approve(request.id);
  const { result } = await answer;
  t.match(result, { txid: /^[0-9a-f]{64}$/, ring: 2 });
  t.ok((await minedAt(result.txid)) > 0, 'mined');
  t.ok((await wallet.balance()) <= before - 1234n, 'paid');
  const saved = await WalletFile.open(file.path, 'pw');
  t.match(walletFilePermissions(saved).load(), [{ origin: ORIGIN }], "the wallet's own saves keep the permissions");
  t.ok((saved.contents as { history?: unknown }).history, 'beside the history');
});

t.test('a denied transfer sends nothing', async (t) => {
  const client = await connected();
  const before = await wallet.balance();
  const { request, answer } = await asking(approvals, client, 'transfer', { destination: receiver, amount: 5000 });
  approvals.deny(request.id);
  const { error } = await answer;
  t.equal(error?.code, DappErrorCode.Denied);
  t.equal(error?.message, 'the user denied the request');
  t.same((await rpcCall(simulator.daemonUrl, 'NODE.GetTxPool')).txs, [], 'nothing in the pool');
  t.equal(await wallet.balance(), before, 'the balance is unchanged');
});

t.test('a call whose trial fails is shown failing; the wallet refuses to send it', async (t) => {
  const client = await connected();
  // Nobody owns the name, so the name service's TransferOwnership returns 1: the call would fail.
  const { request, answer } = await asking(approvals, client, 'callContract', {
    scid: `${'0'.repeat(63)}1`,
    entrypoint: 'TransferOwnership',
    args: [
      { name: 'name', datatype: 'S', value: 'nobody-has-this-name' },
      { name: 'newowner', datatype: 'S', value: receiver },
    ],
  });
  t.equal(request.kind, 'call');
  t.match(request.summary, `call TransferOwnership of contract ${'0'.repeat(63)}1 (ring 2, fee`);
  t.match(request.trial, { ok: false, message: /^would fail: / });
  t.equal(request.details['argument name (S)'], 'nobody-has-this-name');
  await t.rejects(approvals.approve(request.id), /would fail/);
  const { error } = await answer;
  t.equal(error?.code, DappErrorCode.Failed);
  t.equal(error?.data?.wallet_code, 'wallet.contract-call-would-fail');
  t.same((await rpcCall(simulator.daemonUrl, 'NODE.GetTxPool')).txs, [], 'nothing sent');
});

t.test('a call to a function the contract lacks is refused without asking', async (t) => {
  const client = await connected();
  const { error } = await client.call('callContract', { scid: `${'0'.repeat(63)}1`, entrypoint: 'Unregister' });
  t.equal(error?.code, DappErrorCode.Failed);
  t.match(error?.message, 'has no function Unregister');
  t.same(approvals.pending(), []);
});

t.test('requests refused before asking: bad parameters, an unknown destination, too many waiting', async (t) => {
  const client = await connected();
  t.equal((await client.call('transfer', { destination: receiver, amount: -1 })).error?.code, -32602);
  t.equal((await client.call('transfer', { destination: receiver, amount: '1', ring: 3 })).error?.code, -32602);
  t.equal((await client.call('signMessage', {})).error?.code, -32602);
  t.equal((await client.call('callContract', { scid: 'zz', entrypoint: 'X' })).error?.code, -32602);
  const unknown = await client.call('transfer', { destination: 'no-such-name', amount: '1' });
  t.equal(unknown.error?.code, DappErrorCode.Failed);
  t.equal(unknown.error?.data?.wallet_code, 'wallet.unknown-destination');
  t.equal((await client.call('mint', {})).error?.code, -32601);
  t.equal((await client.call('toString')).error?.code, -32601);

  const waiting = [
    (await asking(approvals, client, 'signMessage', { message: 'one' })).answer,
    (await asking(approvals, client, 'signMessage', { message: 'two' })).answer,
  ];
  const third = await client.call('signMessage', { message: 'three' });
  t.equal(third.error?.code, DappErrorCode.TooManyPending, 'the origin has its fill waiting');
  for (const { id } of approvals.pending()) approvals.deny(id);
  t.same(
    (await Promise.all(waiting)).map(({ error }) => error?.code),
    [DappErrorCode.Denied, DappErrorCode.Denied],
  );
});

t.test('a request nobody answers times out', async (t) => {
  const quick = await serveEndpoint(t, core, wallet, file, { requestTimeoutMs: 200 });
  const client = await DappClient.open(t, quick.url, ORIGIN);
  t.ok((await client.call('connect', { name: 'Lottery' })).result, 'the origin was let in (the wallet file says so)');
  const { request, answer } = await asking(quick.endpoint.approvals, client, 'getAddress');
  t.ok(request.expiresAt <= Date.now() + 200);
  const { error } = await answer;
  t.equal(error?.code, DappErrorCode.TimedOut);
  t.match(error?.message, 'nobody approved or denied the request within');
  t.same(quick.endpoint.approvals.pending(), []);
});

t.test('a revoked origin is cut off and refused', async (t) => {
  const client = await connected();
  const waiting = await asking(approvals, client, 'getAddress');
  approvals.revoke(ORIGIN);
  t.equal((await waiting.answer).error?.code, DappErrorCode.NotPermitted, 'what waited is refused');
  t.same(await client.closed, { code: 4100, reason: 'permission revoked' }, 'its connections are closed');
  t.same(approvals.permissions(), []);
  t.same(walletFilePermissions(await WalletFile.open(file.path, 'pw')).load(), [], 'gone from the wallet file');

  const later = await DappClient.open(t, url, ORIGIN);
  t.equal((await later.call('getAddress')).error?.code, DappErrorCode.NotPermitted);
  const connect = await asking(approvals, later, 'connect', { name: 'Lottery' });
  approvals.deny(connect.request.id);
  t.equal((await connect.answer).error?.code, DappErrorCode.Denied, 'connecting again asks again');
  t.equal((await later.call('getAddress')).error?.code, DappErrorCode.NotPermitted);
});

t.test('a client without an Origin header names its origin', async (t) => {
  const client = await DappClient.open(t, url);
  const unnamed = await client.call('connect', { name: 'script' });
  t.equal(unnamed.error?.code, -32602);
  t.match(unnamed.error?.message, "must name its origin: 'origin'");
  const { request, answer } = await asking(approvals, client, 'connect', { name: 'script', origin: 'app://script' });
  t.equal(request.origin, 'app://script');
  approvals.deny(request.id);
  t.equal((await answer).error?.code, DappErrorCode.Denied);
  const browser = await DappClient.open(t, url, 'https://a.example');
  const spoof = await browser.call('connect', { name: 'x', origin: 'https://b.example' });
  t.match(spoof.error, { code: -32602, message: /is not the page's origin https:\/\/a\.example/ });
});

t.test('broken and oversized messages are answered, never fatal', async (t) => {
  const client = await DappClient.open(t, url, ORIGIN);
  t.match(await client.sendRaw('{not json'), { error: { code: -32700, message: 'the message is not JSON' } });
  t.match(await client.sendRaw('[1,2]'), { error: { code: -32600 } });
  t.match(await client.sendRaw('{"jsonrpc":"2.0","method":"connect"}'), { error: { code: -32600 } });
  t.match(await client.call('connect', 'Lottery'), { error: { code: -32602 } });
  const large = await client.sendRaw(
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: 'a'.repeat(70_000) }),
  );
  t.match(large.error, { code: -32600, message: /^a message of \d+ bytes is larger than the 65536 bytes allowed$/ });
  client.socket.send('a'.repeat(2_000_000));
  t.equal((await client.closed).code, 1009, 'a huge message closes its connection');
  const fresh = await DappClient.open(t, url, ORIGIN);
  t.match((await fresh.call('getAddress')).error, { code: DappErrorCode.NotPermitted }, 'the endpoint still serves');
});

t.test('connections are capped', async (t) => {
  const capped = await serveEndpoint(t, core, wallet, file, { maxConnections: 1 });
  await DappClient.open(t, capped.url, ORIGIN);
  await t.rejects(DappClient.open(t, capped.url, ORIGIN), /503/);
});
