/**
 * Every wallet RPC method through a real wallet RPC server, against a real simulator daemon in the same process:
 * the premine account (registered at genesis) has a decodable balance, a fresh wallet is unregistered.
 */
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import t from 'tap';
import WebSocket from 'ws';
import { loadCore } from '../../../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../../../core-native/ts/scalar.js';
import { decodeAddress, encodeAddress } from '../../../../protocol/address.js';
import { blockReward, CHAIN_PARAMS } from '../../../../protocol/chain-params.js';
import { secretKeyToMnemonic } from '../../../../protocol/mnemonic.js';
import { premineKey, premineSecret } from '../../../../protocol/premine.js';
import { postRpc, startTestApp } from '../../../helpers/app.js';
import { startWalletApp, testWallet } from '../../../helpers/wallet-app.js';

const core = await loadCore();
const PREMINE = CHAIN_PARAMS.simulator.premineAmount;

let nextId = 1;
async function rpc(
  url: string,
  method: string,
  params?: unknown,
  headers?: Record<string, string>,
): Promise<{ result?: any; error?: { code: number; message: string } }> {
  return (
    await postRpc(url, { jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) }, headers)
  ).json;
}

t.test('the wallet RPC server against a simulator daemon', async (t) => {
  const daemon = await startTestApp(t, { network: 'simulator' });
  const premineAddress = encodeAddress('simulator', premineKey(core, 'simulator'));
  const url = await startWalletApp(t, testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url));
  const fresh = testWallet(core, 'simulator', bigintToBytes32BE(randomScalar()), daemon.url);
  const freshUrl = await startWalletApp(t, fresh);

  await t.test('Echo', async (t) => {
    t.same(await rpc(url, 'Echo', ['hello', 'world']), {
      jsonrpc: '2.0',
      id: nextId - 1,
      result: 'WALLET hello world',
    });
    t.match((await rpc(url, 'Echo', { a: 1 })).error, { code: -32602 });
    t.match((await rpc(url, 'NODE.Echo', ['x'])).error, { code: -32601 }, 'daemon methods are not the wallet’s');
  });

  await t.test('GetAddress', async (t) => {
    t.same((await rpc(url, 'GetAddress')).result, { address: premineAddress });
    t.same((await rpc(url, 'getaddress', {})).result, { address: premineAddress }, 'lower case, empty params');
    t.same((await rpc(url, 'WALLET.GetAddress')).result, { address: premineAddress }, 'the WALLET. prefix is accepted');
    t.match((await rpc(url, 'GetAddress', { scid: 'x' })).error, { code: -32602, message: /takes no parameters/ });
  });

  await t.test('GetBalance and GetHeight follow the chain', async (t) => {
    t.same(
      (await rpc(url, 'GetBalance')).result,
      { balance: Number(PREMINE), unlocked_balance: Number(PREMINE) },
      'the premine, decoded',
    );
    t.same((await rpc(url, 'getbalance', { scid: '0'.repeat(64) })).result, {
      balance: Number(PREMINE),
      unlocked_balance: Number(PREMINE),
    });
    t.same(
      (await rpc(url, 'GetBalance', { scid: 'ab'.repeat(32) })).result,
      { balance: 0, unlocked_balance: 0 },
      'a token never held is 0',
    );
    t.match((await rpc(url, 'GetBalance', { scid: 'xyz' })).error, {
      code: -32602,
      message: /'scid' must be 64 hexadecimal characters/,
    });
    t.same((await rpc(url, 'GetHeight')).result, { height: 0 });
    t.match((await rpc(url, 'GetHeight', [1])).error, { code: -32602 });

    for (;;) {
      const job = (await rpc(daemon.url, 'NODE.GetBlockTemplate', { wallet_address: premineAddress })).result;
      if (
        (await rpc(daemon.url, 'NODE.SubmitBlock', { jobid: job.jobid, mbl_blob: job.blockhashing_blob })).result
          .block_found
      )
        break;
    }
    t.same((await rpc(url, 'GetHeight')).result, { height: 1 }, 'the new block is seen');
    const mined = Number(PREMINE + blockReward(1n));
    t.same(
      (await rpc(url, 'GetBalance')).result,
      { balance: mined, unlocked_balance: mined },
      'the reward is in the balance',
    );
  });

  await t.test('an unregistered wallet', async (t) => {
    t.same((await rpc(freshUrl, 'GetBalance')).error, {
      code: -32098,
      message: 'Account Unregistered',
      data: { code: 'wallet.account-unregistered' },
    });
    t.same((await rpc(freshUrl, 'GetHeight')).result, { height: 1 }, 'still knows the chain height');
  });

  await t.test('MakeIntegratedAddress and SplitIntegratedAddress', async (t) => {
    const args = [
      { name: 'D', datatype: 'U', value: 777 },
      { name: 'C', datatype: 'S', value: 'invoice 12' },
    ];
    const made = (await rpc(url, 'MakeIntegratedAddress', { payload_rpc: args })).result;
    t.same(made.payload_rpc, args, 'the arguments are echoed');
    t.match(made.integrated_address, /^umbti1/);
    t.same(
      decodeAddress(made.integrated_address).publicKey,
      premineKey(core, 'simulator'),
      'the wallet’s own key by default',
    );
    const split = (await rpc(url, 'split_integrated_address', { integrated_address: made.integrated_address })).result;
    t.same(split, { address: premineAddress, payload_rpc: [args[1], args[0]] }, 'arguments come back sorted by name');

    const other = fresh.address;
    const forOther = (
      await rpc(url, 'make_integrated_address', {
        address: other,
        payload_rpc: [{ name: 'D', datatype: 'U', value: 1 }],
      })
    ).result;
    t.equal(
      (await rpc(url, 'SplitIntegratedAddress', { integrated_address: forOther.integrated_address })).result.address,
      other,
      'any given address',
    );
    const mainnet = encodeAddress('mainnet', premineKey(core, 'simulator'));
    t.match(
      (
        await rpc(url, 'MakeIntegratedAddress', {
          address: mainnet,
          payload_rpc: [{ name: 'D', datatype: 'U', value: 1 }],
        })
      ).result.integrated_address,
      /^umbi1/,
      'keeps the given address’s network',
    );
    t.same(
      (await rpc(url, 'MakeIntegratedAddress', { payload_rpc: [] })).result,
      { integrated_address: premineAddress, payload_rpc: [] },
      'no arguments: the plain address',
    );

    const invalid = async (method: string, params: unknown, message: RegExp): Promise<void> => {
      t.match((await rpc(url, method, params)).error, { code: -32602, message }, JSON.stringify(params));
    };
    await invalid('MakeIntegratedAddress', {}, /payload_rpc must be an array/);
    await invalid(
      'MakeIntegratedAddress',
      { payload_rpc: [{ name: 'D', datatype: 'X', value: 1 }] },
      /payload_rpc\[0\] 'D': unknown datatype "X"/,
    );
    await invalid('MakeIntegratedAddress', { address: 'umbt1nope', payload_rpc: [] }, /'address': not a valid address/);
    await invalid(
      'MakeIntegratedAddress',
      { address: made.integrated_address, payload_rpc: [] },
      /'address' must be a plain address/,
    );
    await invalid('SplitIntegratedAddress', {}, /'integrated_address' must be a string/);
    await invalid('SplitIntegratedAddress', { integrated_address: '' }, /'integrated_address': not a valid address/);
    await invalid(
      'SplitIntegratedAddress',
      { integrated_address: premineAddress },
      /'integrated_address' is a plain address/,
    );
  });

  await t.test('QueryKey', async (t) => {
    const mnemonic = secretKeyToMnemonic(premineSecret(core, 'simulator'));
    t.same((await rpc(url, 'QueryKey', { key_type: 'mnemonic' })).result, { key: mnemonic });
    t.same((await rpc(url, 'query_key', { key_type: 'Mnemonic' })).result, { key: mnemonic });
    t.equal(mnemonic.split(' ').length, 24);
    t.match((await rpc(url, 'QueryKey', { key_type: 'view_key' })).error, {
      code: -32602,
      message: /'key_type' must be mnemonic, got "view_key"/,
    });
    t.match((await rpc(url, 'QueryKey')).error, { code: -32602, message: /'key_type' must be a string/ });
  });

  await t.test('WebSocket: WALLET.-prefixed names', async (t) => {
    const ws = new WebSocket(url.replace('http', 'ws') + '/ws');
    t.teardown(() => ws.close());
    await new Promise((resolve) => ws.once('open', resolve));
    const answer = new Promise<any>((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'WALLET.Echo', params: ['hi'] }));
    t.equal((await answer).result, 'WALLET hi');
  });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

t.test('a wallet whose daemon is offline', async (t) => {
  const port = await closedPort();
  const url = await startWalletApp(
    t,
    testWallet(core, 'simulator', premineSecret(core, 'simulator'), `127.0.0.1:${port}`),
  );
  t.same((await rpc(url, 'GetBalance')).error, {
    code: -32098,
    message: `Daemon is offline (cannot reach the daemon at http://127.0.0.1:${port}/json_rpc: ECONNREFUSED)`,
    data: { code: 'wallet.daemon-offline' },
  });
  t.same((await rpc(url, 'GetHeight')).result, { height: 0 }, 'the last height it knew');
  t.same(
    (await rpc(url, 'GetAddress')).result,
    { address: encodeAddress('simulator', premineKey(core, 'simulator')) },
    'local methods still work',
  );
});

t.test('--rpc-login guards the wallet server', async (t) => {
  const url = await startWalletApp(t, testWallet(core, 'simulator', premineSecret(core, 'simulator'), '127.0.0.1:9'), {
    rpcLogin: 'alice:s3cret',
  });
  const body = { jsonrpc: '2.0', id: 1, method: 'GetAddress' };
  t.equal((await postRpc(url, body)).status, 401);
  t.equal(
    (await postRpc(url, body, { Authorization: `Basic ${Buffer.from('alice:wrong').toString('base64')}` })).status,
    401,
  );
  const ok = await postRpc(url, body, { Authorization: `Basic ${Buffer.from('alice:s3cret').toString('base64')}` });
  t.equal(ok.status, 200);
  t.match(ok.json.result.address, /^umbt1/);
});
