/**
 * The wallet's push topics over its /ws, against an in-process simulator daemon: `history`, each new entry as
 * GetTransferbyTXID answers it (the sender's outgoing entry as it sends, the receiver's incoming one when its sync
 * finds it); `balance`, each change the sync finds, with the old and the new balance.
 */
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../../core-native/ts/scalar.js';
import { encodeAddress } from '../../../protocol/address.js';
import { premineKey, premineSecret } from '../../../protocol/premine.js';
import { NATIVE_ASSET } from '../../../wallet/wallet-constants.js';
import { startTestApp } from '../../helpers/app.js';
import { autoMine, mined, startWalletApp, testWallet, walletRpc } from '../../helpers/wallet-app.js';
import { WsClient } from '../../helpers/ws.js';

const core = await loadCore();

t.test('history and balance are pushed as the wallet finds them', async (t) => {
  const daemon = await startTestApp(t, { network: 'simulator' });
  autoMine(t, daemon.url, encodeAddress('simulator', premineKey(core, 'simulator')));
  const premineUrl = await startWalletApp(
    t,
    testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url),
  );
  const alice = testWallet(core, 'simulator', bigintToBytes32BE(randomScalar()), daemon.url);
  const aliceUrl = await startWalletApp(t, alice);
  await alice.registration.ensure();
  const premineWs = await WsClient.connect(premineUrl);
  const aliceWs = await WsClient.connect(aliceUrl);
  t.teardown(() => [premineWs, aliceWs].forEach((client) => client.close()));
  t.same((await aliceWs.request('Subscribe', { topics: ['balance', 'history'] })).result.topics, [
    'balance',
    'history',
  ]);
  t.same((await premineWs.request('WALLET.Subscribe', { topics: ['history'] })).result.topics, ['history']);
  t.match((await aliceWs.request('Subscribe', { topics: ['block'] })).error, {
    code: -32602,
    message: "invalid params: unknown topic 'block' (known topics: balance, history)",
  });

  const { txid } = await walletRpc(premineUrl, 'transfer', {
    transfers: [{ destination: alice.address, amount: 5000 }],
    ringsize: 2,
  });
  const sent = await premineWs.waitFor((m) => m.params?.entry?.txid === txid, 'the outgoing entry');
  t.match(sent, { method: 'history', params: { scid: NATIVE_ASSET, entry: { incoming: false, amount: 5000 } } });
  await mined(daemon.url);

  await walletRpc(aliceUrl, 'GetTransfers', { in: true });
  const found = await aliceWs.waitFor((m) => m.method === 'history' && m.params.entry.txid === txid, 'the entry');
  t.same(found.params, await walletRpc(aliceUrl, 'GetTransferbyTXID', { txid }), 'as GetTransferbyTXID shows it');
  t.match(found.params.entry, { incoming: true, amount: 5000 });
  const first = await aliceWs.waitFor((m) => m.method === 'balance', 'a balance change');
  t.same(first.params, { scid: NATIVE_ASSET, old: 0, new: 5000 });

  await walletRpc(premineUrl, 'transfer', { transfers: [{ destination: alice.address, amount: 700 }], ringsize: 2 });
  await mined(daemon.url);
  await walletRpc(aliceUrl, 'GetBalance');
  await walletRpc(aliceUrl, 'GetTransfers', { in: true });
  const second = await aliceWs.waitFor((m) => m.method === 'balance' && m.params.old === 5000, 'the second change');
  t.same(second.params, { scid: NATIVE_ASSET, old: 5000, new: 5700 });
  t.equal(aliceWs.of('history').length, 2, 'one entry per transfer');
  t.equal(aliceWs.of('balance').length, 2, 'one change per transfer');

  await aliceWs.request('Unsubscribe', { topics: ['balance'] });
  await walletRpc(premineUrl, 'transfer', { transfers: [{ destination: alice.address, amount: 1 }], ringsize: 2 });
  await mined(daemon.url);
  await walletRpc(aliceUrl, 'GetTransfers', { in: true });
  await aliceWs.waitFor(() => aliceWs.of('history').length === 3, 'the third entry');
  t.equal(aliceWs.of('balance').length, 2, 'no balance change after Unsubscribe');
});
