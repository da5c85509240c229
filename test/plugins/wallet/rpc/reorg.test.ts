/**
 * The history sync follows a reorganisation, end to end against two in-process simulator daemons without P2P: daemon
 * A mines a transfer to the wallet; B, which shares A's chain up to there but never saw the transfer, mines a heavier
 * branch whose blocks are fed into A (NODE.SubmitBlock block_blob). The wallet's next GetTransfers/GetBalance drop the
 * transfer; when B's next branch carries the transfer in a later block, the entry moves there (height, topoheight,
 * blockhash) on both sides. Every time: the balance is the sum of the entries, no entry twice, and every entry names
 * a block of A's main chain.
 */
import t, { type Test } from 'tap';
import { loadCore } from '../../../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../../../core-native/ts/scalar.js';
import { encodeAddress } from '../../../../protocol/address.js';
import { premineKey, premineSecret } from '../../../../protocol/premine.js';
import { mineOneViaRpc, rpcCall, startTestApp } from '../../../helpers/app.js';
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
const premineAddress = encodeAddress('simulator', premineKey(core, 'simulator'));
const ALL = { in: true, out: true, coinbase: true };

const header = async (url: string, topoheight: number) =>
  (await rpcCall(url, 'NODE.GetBlockHeaderByTopoHeight', { topoheight })).block_header;
const topoOf = async (url: string): Promise<number> => (await rpcCall(url, 'NODE.GetInfo')).topoheight;

/** Feeds the blocks of `from` at topoheights (after, to] into `into`, as complete blocks (their transactions first). */
async function feed(from: string, into: string, after: number, to: number): Promise<void> {
  for (let topo = after + 1; topo <= to; topo++) {
    const { blob, json } = await rpcCall(from, 'NODE.GetBlock', { hash: (await header(from, topo)).hash });
    const hashes: string[] = JSON.parse(json).tx_hashes ?? [];
    if (hashes.length > 0) {
      for (const { as_hex } of (await rpcCall(from, 'NODE.GetTransaction', { txs_hashes: hashes })).txs) {
        // One `into` already holds (in its pool or a block) is refused: it is known, which is all the block needs.
        await rpcCall(into, 'NODE.SendRawTransaction', { tx_as_hex: as_hex }).catch(() => undefined);
      }
    }
    await rpcCall(into, 'NODE.SubmitBlock', { block_blob: blob }).catch((error: Error) => {
      throw new Error(`block at topoheight ${topo}: ${error.message}`);
    });
  }
}

/** The balance is the sum of the entries, no entry is there twice, and each names the block of A's main chain at its topoheight. */
async function consistent(t: Test, walletUrl: string, daemonUrl: string, what: string): Promise<AnsweredEntry[]> {
  const all = await transfersOf(walletUrl, ALL);
  const { balance } = await walletRpc(walletUrl, 'GetBalance');
  t.equal(
    all.reduce((sum, e) => sum + (e.incoming ? e.amount : -e.amount - e.fees), 0),
    balance,
    `${what}: the balance is the sum of the entries`,
  );
  const keys = all.map((e) => `${e.txid}:${e.pos}:${e.incoming}:${e.coinbase}`);
  t.equal(new Set(keys).size, keys.length, `${what}: no entry twice`);
  for (const e of all)
    t.equal(
      e.blockhash,
      (await header(daemonUrl, e.topoheight)).hash,
      `${what}: ${e.coinbase ? 'coinbase' : e.txid.slice(0, 8)} at ${e.topoheight} is on the main chain`,
    );
  return all;
}

t.test('the history follows a reorganisation', async (t) => {
  const a = await startTestApp(t, { network: 'simulator' });
  const b = await startTestApp(t, { network: 'simulator' });
  const miner = autoMine(t, a.url, premineAddress);
  const senderUrl = await startWalletApp(t, testWallet(core, 'simulator', premineSecret(core, 'simulator'), a.url));
  const alice = testWallet(core, 'simulator', bigintToBytes32BE(randomScalar()), a.url);
  const aliceUrl = await startWalletApp(t, alice);
  await alice.registration.ensure();
  await mined(a.url);
  miner.paused = true;
  await mineOneViaRpc(a.url, alice.address); // a coinbase entry before the fork: dropped and found again
  const fork = await topoOf(a.url);
  await feed(a.url, b.url, 0, fork);
  t.equal((await header(b.url, fork)).hash, (await header(a.url, fork)).hash, "B shares A's chain up to the fork");
  const before = await consistent(t, aliceUrl, a.url, 'before the fork');
  t.equal(before.length, 1);

  const { txid } = await walletRpc(senderUrl, 'transfer', {
    transfers: [{ destination: alice.address, amount: 4321 }],
    ringsize: 2,
  });
  const txHex = (await rpcCall(a.url, 'NODE.GetTransaction', { txs_hashes: [txid] })).txs[0].as_hex;
  const onA = await mineOneViaRpc(a.url, premineAddress);
  const [seen] = (await transfersOf(aliceUrl, { in: true })).filter((e) => e.txid === txid);
  t.match(
    seen,
    { amount: 4321, height: fork + 1, topoheight: fork + 1, blockhash: onA },
    'the wallet sees the transfer in its block on A',
  );
  await consistent(t, aliceUrl, a.url, 'with the transfer on A');

  await t.test('a heavier branch without the transfer: the entry is gone', async (t) => {
    for (let i = 0; i < 2; i++) await mineOneViaRpc(b.url, premineAddress);
    await feed(b.url, a.url, fork, fork + 2);
    t.equal(
      (await rpcCall(a.url, 'NODE.GetInfo')).top_block_hash,
      (await rpcCall(b.url, 'NODE.GetInfo')).top_block_hash,
      'A follows B',
    );
    t.equal((await rpcCall(a.url, 'NODE.GetBlockHeaderByHash', { hash: onA })).block_header.sideblock, true);
    t.same(
      (await transfersOf(aliceUrl, { in: true })).filter((e) => e.txid === txid),
      [],
      'the transfer is no longer in the history',
    );
    const after = await consistent(t, aliceUrl, a.url, 'after the reorganisation');
    t.same(after, before, 'the history is what it was before the transfer');
    const out = (await transfersOf(senderUrl, { out: true })).filter((e) => e.txid === txid);
    t.equal(out.length, 1, 'the sender keeps its entry (with the payload it sent) …');
    t.match(out[0], { height: 0, topoheight: -1, blockhash: '' }, '… waiting for a block again');
  });

  await t.test('a heavier branch with the transfer in a later block: the entry moves there', async (t) => {
    // A mines the transfer again (it came back to A's pool); the wallet sees it there first.
    const top = await topoOf(a.url);
    if ((await rpcCall(a.url, 'NODE.GetTxPool')).txs.length === 0)
      await rpcCall(a.url, 'NODE.SendRawTransaction', { tx_as_hex: txHex });
    const againOnA = await mineOneViaRpc(a.url, premineAddress);
    t.match(
      (await transfersOf(aliceUrl, { in: true })).filter((e) => e.txid === txid),
      [{ height: top + 1, blockhash: againOnA }],
      'mined again on A',
    );
    // B mines an empty block, then the transfer.
    await mineOneViaRpc(b.url, premineAddress);
    await rpcCall(b.url, 'NODE.SendRawTransaction', { tx_as_hex: txHex });
    const onB = await mineOneViaRpc(b.url, premineAddress);
    await feed(b.url, a.url, top, top + 2);
    t.equal((await rpcCall(a.url, 'NODE.GetInfo')).top_block_hash, onB, 'A follows B');
    const moved = (await transfersOf(aliceUrl, { in: true })).filter((e) => e.txid === txid);
    t.equal(moved.length, 1, 'one entry for the transfer');
    t.match(moved[0], { amount: 4321, height: top + 2, topoheight: top + 2, blockhash: onB }, 'in its new block');
    const after = await consistent(t, aliceUrl, a.url, 'after the second reorganisation');
    t.equal(after.length, before.length + 1);
    const out = (await transfersOf(senderUrl, { out: true })).filter((e) => e.txid === txid);
    t.equal(out.length, 1, "one entry on the sender's side");
    t.match(
      out[0],
      { amount: 4321, height: top + 2, topoheight: top + 2, blockhash: onB, destination: alice.address },
      "the sender's entry moved too",
    );
  });
});
