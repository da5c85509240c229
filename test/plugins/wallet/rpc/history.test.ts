/**
 * The history sync end to end against an in-process simulator daemon: coinbase entries for mined blocks, rings of 2
 * and 16 seen alike by sender and receiver (amount, txid, height, proof), an integrated address's arguments in the
 * receiver's entry, a restart that continues from the wallet file without reading old blocks, and a wallet
 * restored from the mnemonic into a new file with the same balance and history.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadCore } from '../../../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../../../core-native/ts/scalar.js';
import { encodeAddress } from '../../../../protocol/address.js';
import { toHex } from '../../../../protocol/bytes.js';
import { mnemonicToSecretKey } from '../../../../protocol/mnemonic.js';
import { makeRegistration } from '../../../../protocol/registration.js';
import { encodeTransaction } from '../../../../protocol/transaction.js';
import { premineKey, premineSecret } from '../../../../protocol/premine.js';
import { DaemonClient } from '../../../../wallet/daemon-client.js';
import { TransferHistory } from '../../../../wallet/transfer-history.js';
import { WalletFile } from '../../../../wallet/wallet-file.js';
import { keyContents, walletKeys } from '../../../../wallet/wallet-keys.js';
import { WalletService } from '../../../../wallet/wallet-service.js';
import { mineOneViaRpc, postRpc, rpcCall, startTestApp } from '../../../helpers/app.js';
import {
  type AnsweredEntry,
  autoMine,
  mined,
  startWalletApp,
  TEST_BALANCE_TABLE_DIR,
  testWallet,
  transfersOf,
  walletRpc,
} from '../../../helpers/wallet-app.js';

const core = await loadCore();
const { G } = core.generators('UMBRA');
const FAST = { N: 1 << 10, r: 8, p: 1 };

const rpc = walletRpc;
const entries = transfersOf;
const balance = async (url: string): Promise<number> => (await rpc(url, 'GetBalance')).balance;

/** A daemon client that remembers the topoheights of the block headers it asked for. */
class CountingClient extends DaemonClient {
  readonly headers: number[] = [];
  override call<T>(method: string, params?: unknown): Promise<T> {
    if (method === 'NODE.GetBlockHeaderByTopoHeight') this.headers.push((params as { topoheight: number }).topoheight);
    return super.call<T>(method, params);
  }
}

function fileWallet(
  secretKey: Uint8Array,
  daemonUrl: string,
  file: WalletFile,
  daemon = new DaemonClient(daemonUrl),
): WalletService {
  return new WalletService({
    core,
    keys: walletKeys(core, 'simulator', secretKey),
    daemon,
    balanceTableDir: TEST_BALANCE_TABLE_DIR,
    registrationTiming: { pollMs: 20, timeoutMs: 30_000 },
    file,
  });
}

t.test('history sync', async (t) => {
  const daemon = await startTestApp(t, { network: 'simulator' });
  const dir = mkdtempSync(join(tmpdir(), 'umbra-history-'));
  autoMine(t, daemon.url, encodeAddress('simulator', premineKey(core, 'simulator')));
  await startWalletApp(t, testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url));
  const aliceSecret = bigintToBytes32BE(randomScalar());
  const aliceKeys = walletKeys(core, 'simulator', aliceSecret);
  const aliceFile = await WalletFile.create(join(dir, 'alice.wallet'), 'pw', keyContents(aliceKeys), FAST);
  const alice = fileWallet(aliceSecret, daemon.url, aliceFile);
  const bobSecret = bigintToBytes32BE(randomScalar());
  const bobFile = await WalletFile.create(
    join(dir, 'bob.wallet'),
    'pw',
    keyContents(walletKeys(core, 'simulator', bobSecret)),
    FAST,
  );
  const bob = fileWallet(bobSecret, daemon.url, bobFile);
  const aliceUrl = await startWalletApp(t, alice);
  const bobUrl = await startWalletApp(t, bob);
  await alice.registration.ensure();
  await bob.registration.ensure();
  for (let i = 0; i < 14; i++) {
    const secret = core.keccak256(new TextEncoder().encode(`history decoy ${i} ${toHex(aliceSecret)}`));
    await rpcCall(daemon.url, 'NODE.SendRawTransaction', {
      tx_as_hex: toHex(encodeTransaction(makeRegistration(core, G, secret, 0))),
    });
  }
  await mined(daemon.url);

  await t.test('mined blocks are coinbase entries that add up to the balance', async (t) => {
    for (let i = 0; i < 5; i++) await mineOneViaRpc(daemon.url, alice.address);
    const coinbase = await entries(aliceUrl, { coinbase: true });
    t.equal(coinbase.length, 5);
    const total = coinbase.reduce((sum, e) => sum + e.amount, 0);
    t.equal(total, await balance(aliceUrl));
    t.match(coinbase[0], { coinbase: true, incoming: true, status: 0, destination: alice.address });
    t.equal(coinbase[0]!.txid, coinbase[0]!.blockhash);
    t.equal(coinbase[0]!.minerreward, coinbase[0]!.amount);
    t.match(coinbase[0]!.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
  });

  const same = (t: Test, out: AnsweredEntry, into: AnsweredEntry): void => {
    for (const field of [
      'txid',
      'amount',
      'height',
      'topoheight',
      'blockhash',
      'time',
      'proof',
      'payload',
      'pos',
      'tpos',
    ] as const)
      t.equal(into[field], out[field], field);
    t.equal(out.destination, bob.address);
    t.equal(into.destination, bob.address);
  };
  type Test = typeof t;

  for (const ring of [2, 16]) {
    await t.test(`ring ${ring}: both histories agree`, async (t) => {
      const { txid } = await rpc(aliceUrl, 'transfer', {
        transfers: [{ destination: bob.address, amount: 1234 + ring }],
        ringsize: ring,
      });
      await mined(daemon.url);
      const [out] = (await entries(aliceUrl, { out: true })).filter((e) => e.txid === txid);
      const [into] = (await entries(bobUrl, { in: true })).filter((e) => e.txid === txid);
      t.ok(out && into, 'an entry on each side');
      same(t, out!, into!);
      t.equal(into!.amount, 1234 + ring);
      t.match(into, { incoming: true, coinbase: false, status: 0 });
      t.equal(into!.sender, alice.address, 'the receiver learns the sender');
      t.ok(into!.height > 0);
      t.match(into!.proof, /^umbproof1/);
    });
  }

  await t.test("an integrated address's arguments reach the receiver's entry", async (t) => {
    const payload_rpc = [
      { name: 'D', datatype: 'U', value: 4242 },
      { name: 'C', datatype: 'S', value: 'invoice 7' },
    ];
    const MAX_U64 = '{"name":"W","datatype":"U","value":18446744073709551615}';
    const made = await postRpc(
      bobUrl,
      `{"jsonrpc":"2.0","id":1,"method":"MakeIntegratedAddress","params":{"payload_rpc":[${payload_rpc.map((a) => JSON.stringify(a)).join(',')},${MAX_U64}]}}`,
    );
    const { integrated_address } = made.json.result;
    const { txid } = await rpc(aliceUrl, 'transfer', {
      transfers: [{ destination: integrated_address, amount: 77 }],
      ringsize: 2,
    });
    await mined(daemon.url);
    const found = await entries(bobUrl, { in: true, dstport: 4242 });
    t.equal(found.length, 1);
    t.match(found[0], { txid, amount: 77, dstport: 4242, srcport: 0 });
    t.same(
      found[0]!.payload_rpc!.slice(0, 2),
      [payload_rpc[1], payload_rpc[0]],
      'the arguments, in their encoded order (by name)',
    );
    t.same((await rpc(bobUrl, 'GetTransferbyTXID', { txid })).entry, found[0]);
    const byTxid = await postRpc(bobUrl, { jsonrpc: '2.0', id: 2, method: 'GetTransferbyTXID', params: { txid } });
    t.match(
      byTxid.text,
      `"payload_rpc":[{"name":"C","datatype":"S","value":"invoice 7"},{"name":"D","datatype":"U","value":4242},${MAX_U64}]`,
      'a uint64 beyond 2^53 comes back with every digit',
    );
  });

  await t.test('balances add up', async (t) => {
    const all = await entries(bobUrl, { in: true, out: true, coinbase: true });
    t.equal(
      all.reduce((sum, e) => sum + (e.incoming ? e.amount : -e.amount - e.fees), 0),
      await balance(bobUrl),
    );
  });

  await t.test('a restart continues from the wallet file without reading old blocks', async (t) => {
    await bob.sync();
    const saved = bob.historySync.position!;
    const before = [...bob.history.entries('0'.repeat(64))];
    await rpc(aliceUrl, 'transfer', { transfers: [{ destination: bob.address, amount: 5 }], ringsize: 2 });
    await mined(daemon.url);
    const client = new CountingClient(daemon.url);
    const reopened = fileWallet(bobSecret, daemon.url, await WalletFile.open(bobFile.path, 'pw'), client);
    t.same(reopened.historySync.position, saved, 'the position came back from the file');
    await reopened.sync();
    t.ok(client.headers.length > 0);
    t.ok(
      client.headers.every((topo) => topo >= saved.topoheight),
      `only blocks from ${saved.topoheight} on were read (${client.headers.join(',')})`,
    );
    const after = reopened.history.entries('0'.repeat(64));
    t.same(after.slice(0, before.length), before);
    t.equal(after.length, before.length + 1);
    t.equal(after[after.length - 1]!.amount, 5n);
  });

  await t.test('restored from the mnemonic into a new file: same balance and history', async (t) => {
    const secret = mnemonicToSecretKey(aliceKeys.mnemonic);
    const file = await WalletFile.create(
      join(dir, 'alice-restored.wallet'),
      'pw2',
      keyContents(walletKeys(core, 'simulator', secret)),
      FAST,
    );
    const restored = fileWallet(secret, daemon.url, file);
    const restoredUrl = await startWalletApp(t, restored);
    const all = { in: true, out: true, coinbase: true };
    t.equal(await balance(restoredUrl), await balance(aliceUrl));
    const mine = await entries(aliceUrl, all);
    const theirs = await entries(restoredUrl, all);
    t.equal(theirs.length, mine.length);
    t.same(theirs, mine);
    const stored = new TransferHistory();
    stored.load(
      ((await WalletFile.open(file.path, 'pw2')).contents as { history: { entries: unknown } }).history.entries,
    );
    t.same(stored.assets(), restored.history.assets(), 'the history is in the new file');
    t.equal(stored.entries('0'.repeat(64)).length, theirs.length);
  });
});
