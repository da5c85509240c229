/**
 * The history sync on its own, against an in-process simulator daemon: nothing to read before the registration, a
 * transfer and mined blocks found by reading only the blocks that changed the balance, positions and saves, runs
 * that overlap, and the followed tokens' round trip through the wallet file's form.
 */
import t from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../core-native/ts/scalar.js';
import { encodeAddress } from '../../protocol/address.js';
import { premineKey, premineSecret } from '../../protocol/premine.js';
import { AccountRegistration } from '../../wallet/account-registration.js';
import { DaemonClient, DaemonRpcError, type BatchCall } from '../../wallet/daemon-client.js';
import { DaemonAccess } from '../../wallet/chain-access/daemon-access.js';
import { HistorySync } from '../../wallet/history-sync.js';
import { TransferHistory } from '../../wallet/transfer-history.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';
import { walletContext } from '../../wallet/wallet-context.js';
import { walletKeys } from '../../wallet/wallet-keys.js';
import { mineOneViaRpc, rpcCall, startTestApp } from '../helpers/app.js';
import { autoMine, mined, TEST_BALANCE_TABLE_DIR, testWallet } from '../helpers/wallet-app.js';

const core = await loadCore();

/** A daemon client that remembers the methods it called and the topoheights of the block headers it asked for. */
class CountingClient extends DaemonClient {
  readonly headers: number[] = [];
  readonly methods: string[] = [];
  batches = 0;
  override call<T>(method: string, params?: unknown): Promise<T> {
    this.count(method, params);
    return super.call<T>(method, params);
  }
  override batch<T>(calls: readonly BatchCall[]): Promise<(T | DaemonRpcError)[]> {
    this.batches++;
    for (const { method, params } of calls) this.count(method, params);
    return super.batch<T>(calls);
  }
  private count(method: string, params: unknown): void {
    this.methods.push(method);
    if (method === 'NODE.GetBlockHeaderByTopoHeight') this.headers.push((params as { topoheight: number }).topoheight);
  }
}

/** A daemon without Umbra's NODE.GetBalanceChanges, as a reference daemon answers it. */
class ReferenceLikeClient extends CountingClient {
  override call<T>(method: string, params?: unknown): Promise<T> {
    if (method !== 'NODE.GetBalanceChanges') return super.call<T>(method, params);
    this.methods.push(method);
    return Promise.reject(new DaemonRpcError(-32601, 'Method not found'));
  }
}

/** A history sync of a wallet (a fresh one by default) on `daemon`, with its saves and progress reports counted. */
function freshSync(daemonUrl: string, secretKey = bigintToBytes32BE(randomScalar()), client = CountingClient) {
  const daemon = new client(daemonUrl);
  const keys = walletKeys(core, 'simulator', secretKey);
  const access = new DaemonAccess(daemon, keys.address);
  const context = walletContext(core, keys, daemon, access, TEST_BALANCE_TABLE_DIR);
  const history = new TransferHistory();
  const seen = { saves: 0, progress: [] as [number, number][] };
  const sync = new HistorySync(context, history, {
    save: () => seen.saves++,
    progress: (done, total) => seen.progress.push([done, total]),
  });
  const registration = new AccountRegistration(core, context.keys, daemon, access, { pollMs: 20, timeoutMs: 30_000 });
  return { sync, history, seen, daemon, registration, address: context.keys.address };
}

t.test('history sync', async (t) => {
  const daemon = await startTestApp(t, { network: 'simulator' });
  const premineAddress = encodeAddress('simulator', premineKey(core, 'simulator'));
  autoMine(t, daemon.url, premineAddress);
  const premine = testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url);
  const alice = freshSync(daemon.url);
  const topoheight = async (): Promise<number> => (await rpcCall(daemon.url, 'NODE.GetInfo')).topoheight;

  await t.test('an account not registered yet has nothing to read', async (t) => {
    await alice.sync.run();
    t.equal(alice.sync.position, undefined);
    t.same(alice.history.assets(), []);
    t.equal(alice.seen.saves, 0);
  });

  await t.test(
    'a transfer and mined blocks: one entry each, only the blocks that changed the balance read',
    async (t) => {
      await alice.registration.ensure();
      const registered = await topoheight();
      alice.daemon.headers.length = 0; // the registration's wait reads the newest header: only the sync's reads count
      const txid = await premine.transfers.send({
        transfers: [{ destination: alice.address, amount: 5000n, scid: NATIVE_ASSET, burn: 0n, payloadRpc: [] }],
        ringSize: 2,
      });
      await mined(daemon.url);
      for (let i = 0; i < 3; i++) await mineOneViaRpc(daemon.url, premineAddress);
      await mineOneViaRpc(daemon.url, alice.address);
      for (let i = 0; i < 3; i++) await mineOneViaRpc(daemon.url, premineAddress);
      const top = await topoheight();

      await alice.sync.run();
      const entries = alice.history.entries(NATIVE_ASSET);
      t.equal(entries.length, 2);
      t.match(entries[0], { txid, incoming: true, amount: 5000n, coinbase: false });
      t.match(entries[1], { coinbase: true, incoming: true, topoheight: top - 3 });
      const total = entries.reduce((sum, e) => sum + e.amount, 0n);
      t.match(alice.sync.position, { topoheight: top, amount: String(total) });
      t.equal(
        alice.sync.position!.blockhash,
        (await rpcCall(daemon.url, 'NODE.GetBlockHeaderByTopoHeight', { topoheight: top })).block_header.hash,
      );
      const read = new Set(alice.daemon.headers);
      t.same(
        [...read].sort((a, b) => a - b),
        [registered, entries[0]!.topoheight, top - 3, top],
        'the registration block, the two that changed the balance, and the top',
      );
      t.same(alice.seen.progress.at(-1), [2, 2], 'progress: both changed blocks read');
      t.ok(alice.seen.saves >= 1, 'saved at the end');
    },
  );

  await t.test('a run from the saved position reads nothing old; overlapping runs run in turn', async (t) => {
    const from = alice.sync.position!.topoheight;
    alice.daemon.headers.length = 0;
    await mineOneViaRpc(daemon.url, alice.address);
    await Promise.all([alice.sync.run(), alice.sync.run()]);
    t.ok(
      alice.daemon.headers.every((topo) => topo >= from),
      `only blocks from ${from} on (${alice.daemon.headers.join(',')})`,
    );
    t.equal(alice.history.entries(NATIVE_ASSET).filter((e) => e.coinbase).length, 2, 'the new block once, not twice');
    t.equal(alice.sync.position!.topoheight, await topoheight());
  });

  await t.test("followed tokens and their positions survive the wallet file's form", async (t) => {
    const token = 'ab'.repeat(32);
    alice.sync.follow(token);
    alice.sync.follow(NATIVE_ASSET);
    alice.sync.follow('not a scid');
    t.same(alice.sync.tokensToJSON(), { [token]: null }, 'only a token, before its first sync');
    await alice.sync.run();
    const stored = JSON.parse(JSON.stringify(alice.sync.tokensToJSON()));
    t.match(
      stored[token],
      { topoheight: await topoheight(), data: '', amount: '0' },
      'a token never held: the implicit zero',
    );
    const other = freshSync(daemon.url);
    other.sync.loadTokens(stored);
    t.same(other.sync.tokensToJSON(), stored);
  });

  await t.test(
    'a daemon without NODE.GetBalanceChanges: the sync bisects with single reads and finds the same',
    async (t) => {
      const listing = freshSync(daemon.url, premineSecret(core, 'simulator'));
      const bisecting = freshSync(daemon.url, premineSecret(core, 'simulator'), ReferenceLikeClient);
      await listing.sync.run();
      await bisecting.sync.run();
      t.ok(listing.history.entries(NATIVE_ASSET).length > 3, 'the premine has entries');
      t.same(bisecting.history.entries(NATIVE_ASSET), listing.history.entries(NATIVE_ASSET));
      t.same(bisecting.sync.position, listing.sync.position);
      t.ok(listing.daemon.methods.includes('NODE.GetBalanceChanges'));
      t.ok(listing.daemon.batches > 0, 'blocks read in batches from a daemon that lists changes');
      t.equal(bisecting.daemon.batches, 0, 'and with single calls from one that does not');
      t.equal(bisecting.daemon.methods.filter((m) => m === 'NODE.GetBalanceChanges').length, 1, 'asked once');
      await mineOneViaRpc(daemon.url, premineAddress);
      await bisecting.sync.run();
      t.equal(bisecting.daemon.methods.filter((m) => m === 'NODE.GetBalanceChanges').length, 1, 'and not again');
    },
  );
});
