/** NODE.GetEncryptedBalance and NODE.GetRandomAddress through a real daemon. */
import t from 'tap';
import { bigintToBytes32BE } from '../../../../core-native/ts/bigint-bytes.js';
import { loadCore } from '../../../../core-native/ts/index.js';
import { encodeAddress } from '../../../../protocol/address.js';
import { decodeNonceBalance } from '../../../../protocol/nonce-balance.js';
import { CHAIN_PARAMS } from '../../../../protocol/chain-params.js';
import { premineKey, premineSecret } from '../../../../protocol/premine.js';
import { postRpc, startTestApp } from '../../../helpers/app.js';
import { account } from '../../../helpers/dvm.js';

t.test('account queries', async (t) => {
  const { url } = await startTestApp(t, { network: 'testnet' });
  const core = await loadCore({ impl: 'fallback' });
  const premine = encodeAddress('testnet', premineKey(core, 'testnet'));
  let id = 0;
  const call = async (method: string, params?: unknown) =>
    (await postRpc(url, { jsonrpc: '2.0', id: ++id, method, params })).json;

  await t.test('GetEncryptedBalance of the premine account decrypts to the premine', async (t) => {
    const r = (await call('NODE.GetEncryptedBalance', { address: premine, topoheight: -1 })).result;
    t.match(r, { scid: '0'.repeat(64), registration: 0, height: 0, topoheight: 0, dtopoheight: 0, status: 'OK' });
    t.equal(r.treehash, r.dtreehash);
    t.ok(r.bits >= 0);
    const balance = decodeNonceBalance(Buffer.from(r.data, 'hex'));
    const { G } = core.generators('UMBRA');
    const L = core.g1Decompress(balance.L);
    const R = core.g1Decompress(balance.R);
    const point = core.g1Sub(L, core.g1Mul(R, premineSecret(core, 'testnet')));
    t.same(point, core.g1Mul(G, bigintToBytes32BE(CHAIN_PARAMS.testnet.premineAmount)), 'L − x·R = premine·G');
    const omitted = (await call('getencryptedbalance', { address: premine })).result;
    t.equal(omitted.data, r.data, 'no topoheight reads the latest state');
  });

  await t.test('GetEncryptedBalance errors', async (t) => {
    const stranger = account(core, 4).address;
    t.same((await call('NODE.GetEncryptedBalance', { address: stranger, topoheight: -1 })).error, {
      code: -32098,
      message: 'Account Unregistered',
      data: { code: 'query.account-unregistered' },
    });
    t.match(
      (await call('NODE.GetEncryptedBalance', { address: premine, scid: 'ab'.repeat(32) })).error,
      { code: -32098, message: 'Account Unregistered' },
      'holds none of the asset',
    );
    t.match((await call('NODE.GetEncryptedBalance', { address: 'umb1xyz' })).error, {
      code: -32602,
      message: /'address'/,
    });
    t.same((await call('NODE.GetEncryptedBalance', { address: 'umbt1qq' })).error, {
      code: -32602,
      message:
        "invalid params: 'address': not a valid address: it is too short: 7 characters, an address starting umbt1 has 66",
      data: { code: 'rpc.invalid-params' },
    });
    const mainnetAddress = encodeAddress('mainnet', premineKey(core, 'testnet'));
    t.same((await call('NODE.GetEncryptedBalance', { address: mainnetAddress })).error, {
      code: -32602,
      message: "invalid params: 'address': address is for mainnet, not testnet",
      data: { code: 'rpc.invalid-params' },
    });
    t.match((await call('NODE.GetEncryptedBalance', { address: premine, topoheight: 5 })).error, {
      code: -32098,
      message: /topoheight 5 is not on the chain/,
      data: { code: 'query.topoheight-off-chain' },
    });
    t.match((await call('NODE.GetEncryptedBalance', { address: premine, scid: '' })).error, {
      code: -32602,
      message: /'scid'/,
    });
    t.match((await call('NODE.GetEncryptedBalance', {})).error, {
      code: -32602,
      message: /'address' must be a string/,
    });
  });

  await t.test('GetRandomAddress: registered accounts, or holders of an asset', async (t) => {
    t.same((await call('NODE.GetRandomAddress')).result, { address: [premine], status: 'OK' });
    t.same((await call('getrandomaddress', { scid: 'cd'.repeat(32) })).result, { address: [], status: 'OK' });
    t.match((await call('NODE.GetRandomAddress', { scid: 'x' })).error, { code: -32602 });
  });
});
