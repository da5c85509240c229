/**
 * Contracts through the wallet: install with `POST /install_sc` (the txid is the SCID), call with `scinvoke` (ring 2:
 * the contract knows its signer; a native deposit), a name registered with the name service and then used as a
 * transfer destination. Against an in-process simulator daemon that mines whenever its pool holds a transaction.
 */
import t from 'tap';
import { loadCore } from '../../../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../../../core-native/ts/scalar.js';
import { encodeAddress } from '../../../../protocol/address.js';
import { toHex } from '../../../../protocol/bytes.js';
import { makeRegistration } from '../../../../protocol/registration.js';
import { encodeTransaction } from '../../../../protocol/transaction.js';
import { premineKey, premineSecret } from '../../../../protocol/premine.js';
import { STRIPPED_NEWLINES_MESSAGE } from '../../../../plugins/wallet/stripped-newlines.js';
import { postRpc, rpcCall, startTestApp } from '../../../helpers/app.js';
import { autoMine, startWalletApp, testWallet } from '../../../helpers/wallet-app.js';

const core = await loadCore();
const { G } = core.generators('UMBRA');
const NAME_SERVICE = '0'.repeat(63) + '1';

const CONTRACT = `Function Initialize() Uint64
10 STORE("owner", SIGNER())
20 RETURN 0
End Function

Function Keep(n Uint64) Uint64
10 STORE("kept", n)
20 STORE("deposit", COINVALUE())
30 RETURN 0
End Function
`;

/** Its owner may withdraw, anyone else panics; Deposit needs coins; Refuse returns 1. */
const GUARDED = `Function Initialize() Uint64
10 STORE("owner", SIGNER())
20 RETURN 0
End Function

Function Withdraw(amount Uint64) Uint64
10 IF LOAD("owner") == SIGNER() THEN GOTO 30
20 PANIC()
30 SEND_COIN_TO_ADDRESS(SIGNER(), amount)
40 RETURN 0
End Function

Function Deposit() Uint64
10 IF COINVALUE() > 0 THEN GOTO 30
20 RETURN 1
30 RETURN 0
End Function

Function Refuse() Uint64
10 RETURN 1
End Function
`;

async function mined(daemonUrl: string): Promise<void> {
  while ((await rpcCall(daemonUrl, 'NODE.GetTxPool')).txs.length > 0)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

t.test('install_sc, scinvoke and names', async (t) => {
  const daemon = await startTestApp(t, { network: 'simulator' });
  const premineAddress = encodeAddress('simulator', premineKey(core, 'simulator'));
  autoMine(t, daemon.url, premineAddress);
  // Payloads without a destination (deposits, the fee payload) go to a random registered account.
  for (let i = 0; i < 3; i++)
    await rpcCall(daemon.url, 'NODE.SendRawTransaction', {
      tx_as_hex: toHex(encodeTransaction(makeRegistration(core, G, bigintToBytes32BE(randomScalar()), 0))),
    });
  await mined(daemon.url);
  const url = await startWalletApp(t, testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url));
  let id = 0;
  const rpc = async (wallet: string, method: string, params?: unknown) =>
    (await postRpc(wallet, { jsonrpc: '2.0', id: ++id, method, params })).json;

  await t.test('POST /install_sc', async (t) => {
    const response = await fetch(`${url}/install_sc`, { method: 'POST', body: CONTRACT });
    t.equal(response.status, 200);
    t.match(response.headers.get('content-type'), /application\/json/);
    const { txid: scid } = (await response.json()) as { txid: string };
    t.match(scid, /^[0-9a-f]{64}$/);
    await mined(daemon.url);
    const sc = await rpcCall(daemon.url, 'NODE.GetSC', { scid, code: true, variables: true });
    t.equal(sc.code, CONTRACT, 'installed under the txid');
    t.equal(
      sc.stringkeys.owner,
      Buffer.from(premineKey(core, 'simulator')).toString('hex'),
      'ring 2: the installer is the signer',
    );

    await t.test('scinvoke with a deposit', async (t) => {
      const sent = await rpc(url, 'scinvoke', {
        scid,
        sc_rpc: [
          { name: 'entrypoint', datatype: 'S', value: 'Keep' },
          { name: 'n', datatype: 'U', value: 42 },
        ],
        sc_dero_deposit: 700,
      });
      t.match(sent.result?.txid, /^[0-9a-f]{64}$/);
      await mined(daemon.url);
      const after = await rpcCall(daemon.url, 'NODE.GetSC', { scid, variables: true });
      t.same([after.stringkeys.kept, after.stringkeys.deposit, after.balance], [42, 700, 700]);
      t.same((await rpc(url, 'scinvoke', { sc_rpc: [] })).error?.code, -32602, 'scid is required');
    });
  });

  await t.test('install_sc errors are 4xx JSON', async (t) => {
    const empty = await fetch(`${url}/install_sc`, { method: 'POST', body: '' });
    t.same([empty.status, await empty.json()], [400, { error: 'the request body must be the contract source' }]);
    const get = await fetch(`${url}/install_sc`);
    t.equal(get.status, 405);
    const broken = await fetch(`${url}/install_sc`, {
      method: 'POST',
      body: 'Function Other() Uint64\n10 RETURN 0\nEnd Function',
    });
    t.equal(broken.status, 400);
    t.match(((await broken.json()) as { error: string }).error, /^the daemon refused the trial run: .*no Initialize/);
    const squashed = await fetch(`${url}/install_sc`, { method: 'POST', body: CONTRACT.replaceAll('\n', '') });
    t.same(
      [squashed.status, await squashed.json()],
      [400, { error: STRIPPED_NEWLINES_MESSAGE }],
      'a source sent with curl -d instead of --data-binary',
    );
    t.match(STRIPPED_NEWLINES_MESSAGE, /newlines were stripped.*curl --data-binary @file\.bas/);
    t.same((await rpcCall(daemon.url, 'NODE.GetTxPool')).txs, [], 'nothing was sent');
  });

  await t.test('a contract call that would fail is refused unless forced', async (t) => {
    const pool = async (): Promise<unknown[]> => (await rpcCall(daemon.url, 'NODE.GetTxPool')).txs;
    const balance = async (): Promise<number> => (await rpc(url, 'GetBalance')).result.balance;
    const failingInstall = 'Function Initialize() Uint64\n10 RETURN 1\nEnd Function\n';
    const before = await balance();
    const refused = await fetch(`${url}/install_sc`, { method: 'POST', body: failingInstall });
    t.same(
      [refused.status, await refused.json()],
      [
        400,
        {
          error:
            'the contract install would fail: the entry point returned 1 (only Uint64 0 commits); nothing was sent (add ?force=true to send it anyway)',
        },
      ],
    );
    const badForce = await fetch(`${url}/install_sc?force=yes`, { method: 'POST', body: failingInstall });
    t.same([badForce.status, await badForce.json()], [400, { error: 'force must be true or false, got "yes"' }]);
    t.same([await pool(), await balance()], [[], before], 'nothing sent, nothing spent');
    const forced = await fetch(`${url}/install_sc?force=true`, { method: 'POST', body: failingInstall });
    t.equal(forced.status, 200);
    const { txid: failedScid } = (await forced.json()) as { txid: string };
    await mined(daemon.url);
    t.match((await rpcCall(daemon.url, 'NODE.GetTransaction', { txs_hashes: [failedScid] })).txs[0], {
      in_pool: false,
      valid_block: /^[0-9a-f]{64}$/,
    });
    t.match(
      (await postRpc(daemon.url, { jsonrpc: '2.0', id: 1, method: 'NODE.GetSC', params: { scid: failedScid } })).json
        .error,
      {
        message: /no contract/,
      },
      'forced and mined, the install was discarded',
    );

    const installed = await fetch(`${url}/install_sc`, { method: 'POST', body: GUARDED });
    const { txid: scid } = (await installed.json()) as { txid: string };
    t.equal(installed.status, 200, 'a succeeding install goes through without force');
    await mined(daemon.url);
    const withdraw = [
      { name: 'entrypoint', datatype: 'S', value: 'Withdraw' },
      { name: 'amount', datatype: 'U', value: 0 },
    ];

    const held = await balance();
    const anonymous = await rpc(url, 'scinvoke', { scid, sc_rpc: withdraw, ringsize: 4 });
    t.match(anonymous.error, {
      code: -32098,
      message:
        /^the contract call would fail: .*\(in Withdraw line 20\); nothing was sent \(set "force": true to send it anyway\)$/,
    });
    const refusing = await rpc(url, 'transfer', {
      scid,
      sc_rpc: [{ name: 'entrypoint', datatype: 'S', value: 'Refuse' }],
      ringsize: 2,
    });
    t.match(refusing.error, {
      code: -32098,
      message: /^the contract call would fail: the entry point returned 1 \(only Uint64 0 commits\); nothing was sent/,
    });
    const noDeposit = await rpc(url, 'scinvoke', {
      scid,
      sc_rpc: [{ name: 'entrypoint', datatype: 'S', value: 'Deposit' }],
    });
    t.match(noDeposit.error?.message, /^the contract call would fail: the entry point returned 1 /, 'no deposit given');
    const unknown = await rpc(url, 'scinvoke', { scid: 'ab'.repeat(32), sc_rpc: withdraw });
    t.match(unknown.error?.message, /^the daemon refused the trial run: there is no contract abab/);
    t.same([await pool(), await balance()], [[], held], 'refused calls sent nothing');

    t.ok((await rpc(url, 'scinvoke', { scid, sc_rpc: withdraw })).result?.txid, 'the owner (ring 2) may withdraw');
    await mined(daemon.url);
    const deposited = await rpc(url, 'scinvoke', {
      scid,
      sc_rpc: [{ name: 'entrypoint', datatype: 'S', value: 'Deposit' }],
      sc_dero_deposit: 50,
    });
    t.ok(deposited.result?.txid, 'the trial sees the deposit');
    await mined(daemon.url);
    t.equal((await rpcCall(daemon.url, 'NODE.GetSC', { scid })).balance, 50);

    const forcedCall = await rpc(url, 'scinvoke', {
      scid,
      sc_rpc: [{ name: 'entrypoint', datatype: 'S', value: 'Refuse' }],
      force: true,
    });
    t.match(forcedCall.result?.txid, /^[0-9a-f]{64}$/, 'forced, it is sent');
    await mined(daemon.url);
    t.equal(
      (await rpcCall(daemon.url, 'NODE.GetTransaction', { txs_hashes: [forcedCall.result.txid] })).txs[0].in_pool,
      false,
      'and mined',
    );
  });

  await t.test('a registered name as a destination', async (t) => {
    const alice = testWallet(core, 'simulator', bigintToBytes32BE(randomScalar()), daemon.url);
    const aliceUrl = await startWalletApp(t, alice);
    t.match(
      (await rpc(url, 'transfer', { destination: alice.address, amount: 10_000, ringsize: 2 })).error?.message,
      /is not registered/,
    );
    await alice.registration.ensure();
    t.ok((await rpc(url, 'transfer', { destination: alice.address, amount: 10_000, ringsize: 2 })).result?.txid);
    await mined(daemon.url);
    const register = await rpc(aliceUrl, 'scinvoke', {
      scid: NAME_SERVICE,
      sc_rpc: [
        { name: 'entrypoint', datatype: 'S', value: 'Register' },
        { name: 'name', datatype: 'S', value: 'alice-wonder' },
      ],
    });
    t.ok(register.result?.txid, JSON.stringify(register.error));
    await mined(daemon.url);
    t.equal((await rpcCall(daemon.url, 'NODE.NameToAddress', { name: 'alice-wonder' })).address, alice.address);
    const before = (await rpc(aliceUrl, 'GetBalance')).result.balance;
    t.ok(
      (await rpc(url, 'transfer', { transfers: [{ destination: 'alice-wonder', amount: 500 }], ringsize: 2 })).result
        ?.txid,
    );
    await mined(daemon.url);
    t.equal((await rpc(aliceUrl, 'GetBalance')).result.balance, before + 500, 'paid through the name');
  });
});
