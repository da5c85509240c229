/**
 * Token histories and contract payouts end to end against an in-process simulator daemon: token.bas installed by a
 * wallet is a 1 600 000-token contract payout in the installer's history (scid = the token); a token transfer is
 * incoming for the receiver and outgoing for the sender; a receiver that never named the token learns it from a
 * payload whose ring holds it; the followed tokens survive a reopen of the wallet file; a lottery payout in coin is an
 * incoming entry of the winner.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadCore } from '../../../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../../../core-native/ts/scalar.js';
import { encodeAddress } from '../../../../protocol/address.js';
import { toHex } from '../../../../protocol/bytes.js';
import { makeRegistration } from '../../../../protocol/registration.js';
import { encodeTransaction } from '../../../../protocol/transaction.js';
import { premineKey, premineSecret } from '../../../../protocol/premine.js';
import { WalletFile } from '../../../../wallet/wallet-file.js';
import { keyContents, walletKeys } from '../../../../wallet/wallet-keys.js';
import { rpcCall, startTestApp } from '../../../helpers/app.js';
import {
  type AnsweredEntry,
  autoMine,
  mined,
  startWalletApp,
  testWallet,
  transfersOf,
  walletRpc,
} from '../../../helpers/wallet-app.js';

const core = await loadCore();
const { G } = core.generators('UMBRA');
const FAST = { N: 1 << 10, r: 8, p: 1 };
const source = (name: string): string => readFileSync(join('examples', 'contracts', `${name}.bas`), 'utf8');

const rpc = walletRpc;
const entries = transfersOf;

async function install(walletUrl: string, code: string): Promise<string> {
  const response = await fetch(`${walletUrl}/install_sc`, { method: 'POST', body: code });
  const body = (await response.json()) as { txid?: string; error?: string };
  if (!response.ok || !body.txid) throw new Error(`install_sc answered ${response.status}: ${body.error}`);
  return body.txid;
}

t.test('token histories and contract payouts', async (t) => {
  const daemon = await startTestApp(t, { network: 'simulator' });
  const dir = mkdtempSync(join(tmpdir(), 'umbra-token-history-'));
  autoMine(t, daemon.url, encodeAddress('simulator', premineKey(core, 'simulator')));
  const premineUrl = await startWalletApp(
    t,
    testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url),
  );
  const aliceSecret = bigintToBytes32BE(randomScalar());
  const aliceFile = await WalletFile.create(
    join(dir, 'alice.wallet'),
    'pw',
    keyContents(walletKeys(core, 'simulator', aliceSecret)),
    FAST,
  );
  const alice = testWallet(core, 'simulator', aliceSecret, daemon.url, { file: aliceFile });
  const bob = testWallet(core, 'simulator', bigintToBytes32BE(randomScalar()), daemon.url);
  const carol = testWallet(core, 'simulator', bigintToBytes32BE(randomScalar()), daemon.url);
  const aliceUrl = await startWalletApp(t, alice);
  const bobUrl = await startWalletApp(t, bob);
  const carolUrl = await startWalletApp(t, carol);
  await Promise.all([alice.registration.ensure(), bob.registration.ensure(), carol.registration.ensure()]);
  // Decoys for payloads without a destination (the fee payload, deposits).
  for (let i = 0; i < 3; i++)
    await rpcCall(daemon.url, 'NODE.SendRawTransaction', {
      tx_as_hex: toHex(encodeTransaction(makeRegistration(core, G, bigintToBytes32BE(randomScalar()), 0))),
    });
  await mined(daemon.url);
  await rpc(premineUrl, 'transfer', {
    transfers: [alice, bob, carol].map((w) => ({ destination: w.address, amount: 1_000_000 })),
    ringsize: 2,
  });
  await mined(daemon.url);

  const token = await install(aliceUrl, source('token'));
  await mined(daemon.url);

  await t.test("token.bas's initial grant is a contract payout in the installer's token history", async (t) => {
    const found = await entries(aliceUrl, { in: true, scid: token });
    t.equal(found.length, 1);
    t.match(found[0], {
      incoming: true,
      coinbase: false,
      amount: 1_600_000,
      scid: token,
      txid: token,
      destination: alice.address,
      status: 0,
      contract: { scid: token },
    });
    t.ok(found[0]!.height > 0 && found[0]!.blockhash !== '');
    t.equal((await rpc(aliceUrl, 'GetBalance', { scid: token })).balance, 1_600_000);
    t.notOk(
      (await entries(aliceUrl, { in: true })).some((e) => e.amount === 1_600_000),
      'not in the native history',
    );
    t.notOk(
      (await entries(aliceUrl, { in: true })).some((e) => e.scid !== undefined),
      'native entries carry no scid',
    );
  });

  let transferTxid = '';
  await t.test('a token transfer: incoming for the receiver, outgoing for the sender', async (t) => {
    transferTxid = (
      await rpc(aliceUrl, 'transfer', {
        transfers: [{ destination: bob.address, amount: 2_500, scid: token }],
        ringsize: 2,
      })
    ).txid;
    await mined(daemon.url);
    const [into] = (await entries(bobUrl, { in: true, scid: token })).filter((e) => e.txid === transferTxid);
    const [out] = (await entries(aliceUrl, { out: true, scid: token })).filter((e) => e.txid === transferTxid);
    t.ok(into && out, 'an entry on each side');
    t.match(into, { incoming: true, amount: 2_500, scid: token, sender: alice.address, destination: bob.address });
    t.match(out, { incoming: false, amount: 2_500, scid: token, destination: bob.address, status: 1 });
    for (const field of ['height', 'topoheight', 'blockhash', 'proof', 'pos', 'tpos'] as const)
      t.equal(into![field], out![field], field);
    t.ok(into!.height > 0);
    t.equal((await rpc(bobUrl, 'GetBalance', { scid: token })).balance, 2_500);
    const aliceTokens = await entries(aliceUrl, { in: true, out: true, scid: token });
    t.equal(
      aliceTokens.reduce((sum, e) => sum + (e.incoming ? e.amount : -e.amount - e.fees), 0),
      (await rpc(aliceUrl, 'GetBalance', { scid: token })).balance,
      'the token entries add up to the balance',
    );
    t.same((await rpc(bobUrl, 'GetTransferbyTXID', { txid: transferTxid })).scid, token);
  });

  await t.test('a token the wallet never named is found through a payload whose ring holds it', async (t) => {
    const { txid } = await rpc(aliceUrl, 'transfer', {
      transfers: [
        { destination: carol.address, amount: 50_000 },
        { destination: carol.address, amount: 300, scid: token },
      ],
      ringsize: 2,
    });
    await mined(daemon.url);
    t.notOk(carol.historySync.tokens.has(token));
    await carol.sync();
    t.ok(carol.historySync.tokens.has(token), 'followed');
    t.match(carol.history.entries(token), [{ txid, amount: 300n, incoming: true, scid: token }]);
  });

  await t.test('the followed tokens and their positions are in the wallet file', async (t) => {
    await alice.sync();
    const reopened = testWallet(core, 'simulator', aliceSecret, daemon.url, {
      file: await WalletFile.open(aliceFile.path, 'pw'),
    });
    t.same(reopened.historySync.tokens.get(token), alice.historySync.tokens.get(token));
    t.ok(reopened.historySync.tokens.get(token)!.topoheight > 0);
    t.same(reopened.history.entries(token), alice.history.entries(token));
  });

  await t.test("a lottery payout in coin is an incoming entry in the winner's history", async (t) => {
    const lottery = await install(premineUrl, source('lottery'));
    await mined(daemon.url);
    const play = {
      scid: lottery,
      sc_rpc: [{ name: 'entrypoint', datatype: 'S', value: 'Lottery' }],
      sc_dero_deposit: 10_000,
      ringsize: 2,
    };
    await rpc(bobUrl, 'scinvoke', play);
    await mined(daemon.url);
    const { txid } = await rpc(carolUrl, 'scinvoke', play);
    await mined(daemon.url);
    const payouts = async (url: string): Promise<AnsweredEntry[]> =>
      (await entries(url, { in: true })).filter((e) => e.txid === txid);
    const [bobs, carols] = [await payouts(bobUrl), await payouts(carolUrl)];
    t.equal(bobs.length + carols.length, 1, 'one winner');
    const [payout] = [...bobs, ...carols];
    t.match(payout, { incoming: true, coinbase: false, amount: 19_800, sender: '' });
    t.same(payout!.contract, { scid: lottery, entrypoint: 'Lottery', args: [] }, 'the contract that paid');
    t.equal(payout!.scid, undefined);
    const [played] = (await entries(carolUrl, { out: true })).filter((e) => e.txid === txid);
    t.same(played!.contract, { scid: lottery, entrypoint: 'Lottery', args: [] }, 'the call names its contract');
    t.equal(
      (await rpcCall(daemon.url, 'NODE.GetSC', { scid: lottery, variables: true })).balance,
      200,
      'the rest stays in the pot',
    );
    for (const url of [bobUrl, carolUrl]) {
      const all = await entries(url, { in: true, out: true, coinbase: true });
      t.equal(
        all.reduce((sum, e) => sum + (e.incoming ? e.amount : -e.amount - e.fees), 0),
        (await rpc(url, 'GetBalance')).balance,
        'the native entries add up',
      );
    }
  });
});
