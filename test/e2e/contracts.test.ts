/**
 * The whole service as contract developers use it: `umbra simulator` started for real and driven only through HTTP
 * JSON-RPC and POST /install_sc. The sample contracts are installed and played (lottery payout, token issue and
 * convert, exchange interchange with exact balances, a registered name paid by name), a panicking call with ring 2
 * (refunded) and ring 4 (not), two lottery plays in one block, gas estimates, and a multi-asset transfer.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { rpcCall } from '../helpers/app.js';
import { startCli } from '../helpers/cli.js';

const NAME_SERVICE = '0'.repeat(63) + '1';
const source = (name: string): string => readFileSync(join('examples', 'contracts', `${name}.bas`), 'utf8');

const home = mkdtempSync(join(tmpdir(), 'umbra-e2e-home-'));
const sim = startCli(
  ['simulator', '--wallets', '4', '--rpc-bind', '127.0.0.1:0', '--wallet-rpc-port-base', '0', '--noautomine'],
  { HOME: home },
);
t.teardown(() => sim.child.kill('SIGKILL'));
const [, daemon] = await sim.waitFor(/daemon RPC (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/, 90_000);
await sim.waitFor(/simulator ready/, 90_000);
const wallets = [...sim.log().matchAll(/wallet \d+: (\S+) (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/g)].map((m) => ({
  address: m[1]!,
  url: m[2]!,
}));
const [w0, w1, w2, w3] = wallets as [
  (typeof wallets)[0],
  (typeof wallets)[0],
  (typeof wallets)[0],
  (typeof wallets)[0],
];

const mine = (): Promise<unknown> => rpcCall(daemon!, 'SIMULATOR.Mine', { blocks: 1 });
const balance = async (wallet: { url: string }, scid?: string): Promise<number> =>
  (await rpcCall(wallet.url, 'GetBalance', scid ? { scid } : {})).balance;
const sc = async (scid: string, variables = true): Promise<any> =>
  rpcCall(daemon!, 'NODE.GetSC', { scid, variables, code: false });
/** A wallet call that sends a transaction, then the block that mines it; returns the txid. */
async function send(wallet: { url: string }, method: string, params: unknown): Promise<string> {
  const { txid } = await rpcCall(wallet.url, method, params);
  await mine();
  const record = (await rpcCall(daemon!, 'NODE.GetTransaction', { txs_hashes: [txid] })).txs[0];
  if (!record.valid_block) throw new Error(`${method} ${txid} was not mined`);
  return txid;
}
async function install(wallet: { url: string }, code: string): Promise<string> {
  const response = await fetch(`${wallet.url}/install_sc`, { method: 'POST', body: code });
  const body = (await response.json()) as { txid?: string; error?: string };
  if (!response.ok || !body.txid) throw new Error(`install_sc answered ${response.status}: ${body.error}`);
  await mine();
  return body.txid;
}
const args = (entrypoint: string, more: { name: string; datatype: string; value: unknown }[] = []) => [
  { name: 'entrypoint', datatype: 'S', value: entrypoint },
  ...more,
];

t.test('lottery: two players, the winner is paid 9900/10000 of the pot', async (t) => {
  const lottery = await install(w0, source('lottery'));
  t.ok((await sc(lottery)).stringkeys.owner !== undefined, 'installed and initialised');
  const before = [await balance(w1), await balance(w2)];
  await send(w1, 'scinvoke', { scid: lottery, sc_rpc: args('Lottery'), sc_dero_deposit: 10_000, ringsize: 2 });
  await send(w2, 'scinvoke', { scid: lottery, sc_rpc: args('Lottery'), sc_dero_deposit: 10_000, ringsize: 2 });
  const after = [await balance(w1), await balance(w2)];
  const gained = after.map((a, i) => a - before[i]!);
  t.ok(
    gained.some((g) => g > 9000) && gained.some((g) => g < -10_000),
    `one player won 19 800 less fees, the other lost 10 000 and fees (${gained})`,
  );
  const state = await sc(lottery);
  t.equal(state.balance, 200, 'the contract keeps 1% of the pot');
  t.equal(state.stringkeys.deposit_count, 0, 'a new round begins');

  // Two plays in one block: both are executed in order, the second completing the round.
  await rpcCall(w1.url, 'scinvoke', { scid: lottery, sc_rpc: args('Lottery'), sc_dero_deposit: 5_000, ringsize: 2 });
  await rpcCall(w2.url, 'scinvoke', { scid: lottery, sc_rpc: args('Lottery'), sc_dero_deposit: 5_000, ringsize: 2 });
  t.equal((await rpcCall(daemon!, 'NODE.GetTxPool')).txs.length, 2);
  await mine();
  t.equal((await rpcCall(daemon!, 'NODE.GetTxPool')).txs.length, 0, 'both went into one block');
  t.equal((await sc(lottery)).balance, 300, 'and the round paid out');
});

t.test('token: issue for a deposit and convert back', async (t) => {
  const token = await install(w0, source('token'));
  t.equal(await balance(w0, token), 1_600_000, 'the installer got the initial grant');
  await send(w0, 'scinvoke', { scid: token, sc_rpc: args('IssueTOKENX'), sc_dero_deposit: 7_000, ringsize: 2 });
  t.equal(await balance(w0, token), 1_607_000, 'issued 1:1');
  t.equal((await sc(token)).balance, 7_000);
  const coins = await balance(w0);
  await send(w0, 'scinvoke', { scid: token, sc_rpc: args('ConvertTOKENX'), sc_token_deposit: 3_000, ringsize: 2 });
  t.equal(await balance(w0, token), 1_604_000, 'the tokens went in');
  t.equal((await sc(token)).balance, 4_000, 'the coin came out');
  t.ok((await balance(w0)) > coins, 'to the signer');
});

t.test('exchange: deposit one asset, interchange another, exact balances', async (t) => {
  const exchange = await install(w0, source('exchange'));
  const a = await install(w0, source('token'));
  const b = await install(w0, source('asset'));
  await send(w0, 'scinvoke', { scid: b, sc_rpc: args('IssueAsset'), sc_dero_deposit: 20_000, ringsize: 2 });
  t.equal(await balance(w0, b), 20_000);
  await send(w0, 'transfer', {
    scid: exchange,
    sc_rpc: args('Deposit'),
    transfers: [{ scid: b, burn: 10_000 }],
    ringsize: 2,
  });
  t.equal(await balance(w0, b), 10_000, 'asset B deposited');
  t.equal((await sc(exchange)).balances[b], 10_000);
  await send(w0, 'transfer', {
    scid: exchange,
    ringsize: 2,
    transfers: [{ scid: a, burn: 4_000 }],
    sc_rpc: args('Interchange', [
      { name: 'incoming', datatype: 'H', value: a },
      { name: 'outgoing', datatype: 'H', value: b },
    ]),
  });
  t.equal(await balance(w0, a), 1_596_000, '4 000 of A went in');
  t.equal(await balance(w0, b), 12_000, 'half as much B came out');
  const balances = (await sc(exchange)).balances;
  t.same([balances[a], balances[b]], [4_000, 8_000], 'the exchange holds the difference');
});

t.test('names: register through the name service, resolve, and pay the name', async (t) => {
  await send(w3, 'scinvoke', {
    scid: NAME_SERVICE,
    sc_rpc: args('Register', [{ name: 'name', datatype: 'S', value: 'wallet-three' }]),
    ringsize: 2,
  });
  const resolved = await rpcCall(daemon!, 'NODE.NameToAddress', { name: 'wallet-three' });
  t.equal(resolved.address, w3.address);
  const before = await balance(w3);
  await send(w1, 'transfer', { transfers: [{ destination: 'wallet-three', amount: 1_234 }], ringsize: 4 });
  t.equal(await balance(w3), before + 1_234, 'paid by name');
});

t.test('a panicking call refunds a known signer (ring 2), not an anonymous one (ring 4)', async (t) => {
  const boom = await install(
    w2,
    'Function Initialize() Uint64\n10 RETURN 0\nEnd Function\n\nFunction Boom() Uint64\n10 PANIC()\nEnd Function\n',
  );
  const fee = 300;
  let before = await balance(w2);
  const boomCall = { scid: boom, sc_rpc: args('Boom'), sc_dero_deposit: 5_000, fees: fee, force: true };
  await send(w2, 'scinvoke', { ...boomCall, ringsize: 2 });
  t.equal(await balance(w2), before - fee, 'ring 2: deposit refunded, fee paid');
  before = await balance(w2);
  await send(w2, 'scinvoke', { ...boomCall, ringsize: 4 });
  t.equal(await balance(w2), before - fee - 5_000, 'ring 4: deposit lost');
  t.equal((await sc(boom)).balance, 0, 'and not kept by the contract');
});

t.test('gas estimates for an install and a call', async (t) => {
  const install = await rpcCall(daemon!, 'NODE.GetGasEstimate', { sc: source('lottery') });
  t.ok(install.gascompute > 0 && install.gasstorage > 0, 'install');
  const call = await rpcCall(daemon!, 'NODE.GetGasEstimate', {
    sc_rpc: [
      { name: 'SC_ID', datatype: 'H', value: NAME_SERVICE },
      ...args('Register', [{ name: 'name', datatype: 'S', value: 'estimated-name' }]),
    ],
    signer: w0.address,
  });
  t.ok(call.gascompute > 0, 'call');
});

t.test('one transfer to several destinations in several assets', async (t) => {
  const token = await install(w0, source('token'));
  const before = [await balance(w1), await balance(w2, token)];
  await send(w0, 'transfer', {
    transfers: [
      { destination: w1.address, amount: 1_000 },
      { destination: w2.address, amount: 2_500, scid: token },
    ],
    ringsize: 4,
  });
  t.equal(await balance(w1), before[0]! + 1_000, 'coin to one');
  t.equal(await balance(w2, token), before[1]! + 2_500, 'token to another');
});

t.test('stop', async (t) => {
  sim.child.kill('SIGINT');
  t.equal(await sim.exited, 0, 'the simulator stops cleanly');
});
