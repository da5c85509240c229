/**
 * The simulator's controls on a real `umbra simulator`, through HTTP only: SIMULATOR.Mine honours `count` and its
 * timestamp step, SetNextTimestamp is what BLOCK_TIMESTAMP() sees, Fund credits coin and a token from the premine,
 * and Revert takes the chain, the contract's state, the pool and the wallets' views back to a snapshot.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { rpcCall } from '../../helpers/app.js';
import { REPO_ROOT, startCli } from '../../helpers/cli.js';

const PREMINE = 'umbt1qyk9nk20na7mgu6whzp8tnj2jk725dtspwzctg833v937jzqvn6suqghty4ql';
const STAMP = [
  'Function Initialize() Uint64',
  '10 STORE("calls", 0)',
  '20 RETURN 0',
  'End Function',
  '',
  'Function Stamp() Uint64',
  '10 STORE("t", BLOCK_TIMESTAMP())',
  '20 STORE("calls", LOAD("calls") + 1)',
  '30 RETURN 0',
  'End Function',
  '',
].join('\n');

const sim = startCli(['simulator', '--wallets', '2', '--rpc-bind', '127.0.0.1:0', '--wallet-rpc-port-base', '0'], {
  HOME: mkdtempSync(join(tmpdir(), 'umbra-sim-rpc-home-')),
});
t.teardown(() => sim.child.kill('SIGKILL'));
const [, daemon] = (await sim.waitFor(/daemon RPC (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/, 90_000)) as string[];
await sim.waitFor(/simulator ready/, 90_000);
const wallets = [...sim.log().matchAll(/wallet \d+: (\S+) (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/g)].map((m) => ({
  address: m[1]!,
  url: m[2]!,
}));
const [w0, w1] = wallets as [{ address: string; url: string }, { address: string; url: string }];

const call = (method: string, params?: unknown) => rpcCall(daemon!, method, params);
const height = async (): Promise<number> => (await call('NODE.GetHeight')).height;
const topTimestamp = async (): Promise<number> => (await call('NODE.GetLastBlockHeader')).block_header.timestamp;

/** Waits until a block holds the transaction. */
async function mined(txid: string): Promise<void> {
  while (!(await call('NODE.GetTransaction', { txs_hashes: [txid] })).txs[0].valid_block)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

async function install(code: string): Promise<string> {
  const response = await fetch(`${w0.url.replace(/\/json_rpc$/, '')}/install_sc`, { method: 'POST', body: code });
  const { txid } = (await response.json()) as { txid: string };
  await mined(txid);
  return txid;
}

async function stamp(scid: string): Promise<void> {
  const { txid } = await rpcCall(w0.url, 'scinvoke', {
    scid,
    sc_rpc: [{ name: 'entrypoint', datatype: 'S', value: 'Stamp' }],
  });
  await mined(txid);
}

const variables = async (scid: string): Promise<Record<string, unknown>> =>
  (await call('NODE.GetSC', { scid, variables: true })).stringkeys;

const balance = async (url: string, scid?: string): Promise<number> =>
  (await rpcCall(url, 'GetBalance', scid ? { scid } : {})).balance;

t.test('Mine honours count and a timestamp step; unknown params are refused', async (t) => {
  const before = await height();
  const { blids } = await call('SIMULATOR.Mine', { count: 5 });
  t.equal(blids.length, 5);
  t.equal(await height(), before + 5, 'five blocks');
  const start = await topTimestamp();
  await call('SIMULATOR.Mine', { count: 2, timestamp_step_ms: 3_600_000 });
  const stepped = await topTimestamp();
  t.ok(stepped >= start + 7_200_000 && stepped < start + 7_200_000 + 1000, `two steps of an hour (${stepped - start})`);
  await t.rejects(call('SIMULATOR.Mine', { count: 0 }), { code: -32602 });
  await t.rejects(call('SIMULATOR.Mine', { cuont: 2 }), { code: -32602, message: /unknown field 'cuont'.*count/ });
  await t.rejects(call('SIMULATOR.Fund', { address: w1.address, amount: 5, asset: 'x' }), { code: -32602 });
  await t.rejects(call('SIMULATOR.Snapshot', { id: 1 }), { code: -32602 });
});

let scid = '';

t.test('SetNextTimestamp is what BLOCK_TIMESTAMP() sees in the next block', async (t) => {
  scid = await install(STAMP);
  const at = (Math.floor((await topTimestamp()) / 1000) + 86_400) * 1000;
  await t.rejects(call('SIMULATOR.SetNextTimestamp', { timestamp: 1000 }), { code: -32602, message: /before the top/ });
  await call('SIMULATOR.SetNextTimestamp', { timestamp: at });
  await stamp(scid);
  t.equal((await variables(scid)).t, at / 1000, 'seconds of the set timestamp');
  t.ok((await topTimestamp()) >= at);
});

t.test('Fund credits coin and a token from the premine', async (t) => {
  const coin = await balance(w1.url);
  const funded = await call('SIMULATOR.Fund', { address: w1.address, amount: 12_345 });
  t.match(funded, { txid: /^[0-9a-f]{64}$/, blid: /^[0-9a-f]{64}$/, status: 'OK' });
  t.equal(await balance(w1.url), coin + 12_345);

  const token = await install(readFileSync(join(REPO_ROOT, 'examples', 'contracts', 'token.bas'), 'utf8'));
  await t.rejects(call('SIMULATOR.Fund', { address: w1.address, amount: 10, scid: token }), {
    code: -32602,
    message: /the premine holds 0 of asset/,
  });
  // The premine gets tokens as anyone would: wallet 0, the installer, sends it some.
  const { txid } = await rpcCall(w0.url, 'transfer', {
    transfers: [{ destination: PREMINE, amount: 5000, scid: token }],
    ringsize: 2,
  });
  await mined(txid);
  await call('SIMULATOR.Fund', { address: w1.address, amount: 700, scid: token });
  t.equal(await balance(w1.url, token), 700);
  await call('SIMULATOR.Fund', { address: w1.address, amount: 300, scid: token });
  t.equal(await balance(w1.url, token), 1000);
  await t.rejects(call('SIMULATOR.Fund', { address: PREMINE.replace(/.$/, 'x'), amount: 1 }), { code: -32602 });
});

t.test('Revert takes chain, contract state, pool and wallet views back to the snapshot', async (t) => {
  const before = {
    height: await height(),
    w0: await balance(w0.url),
    w1: await balance(w1.url),
    vars: await variables(scid),
    history: (await rpcCall(w1.url, 'GetTransfers', { in: true, out: true })).entries.length,
  };
  const { id } = await call('SIMULATOR.Snapshot');
  const { txid } = await rpcCall(w0.url, 'transfer', {
    transfers: [{ destination: w1.address, amount: 4321 }],
    ringsize: 2,
  });
  await mined(txid);
  await stamp(scid);
  t.equal(await balance(w1.url), before.w1 + 4321, 'the transfer arrived');
  t.equal((await variables(scid)).calls, (before.vars.calls as number) + 1, 'the call counted');
  t.ok((await height()) > before.height);

  const reverted = await call('SIMULATOR.Revert', { id });
  t.equal(reverted.height, before.height);
  t.equal(await height(), before.height);
  t.same(await variables(scid), before.vars, 'GetSC as at the snapshot');
  t.equal(await balance(w0.url), before.w0, 'the sender has its coins back');
  t.equal(await balance(w1.url), before.w1, 'the receiver never got them');
  const history = (await rpcCall(w1.url, 'GetTransfers', { in: true, out: true })).entries;
  t.equal(history.length, before.history, "the receiver's history no longer shows the transfer");
  t.equal((await call('NODE.GetTransaction', { txs_hashes: [txid] })).txs[0].valid_block, '', 'in no main block');
  await t.rejects(call('SIMULATOR.Revert', { id }), { code: -32602, message: /no snapshot/ });

  // The chain goes on from the snapshot.
  await call('SIMULATOR.Mine', { count: 1 });
  t.equal(await height(), before.height + 1);
});

t.test('stop', async (t) => {
  sim.child.kill('SIGINT');
  t.equal(await sim.exited, 0);
});
