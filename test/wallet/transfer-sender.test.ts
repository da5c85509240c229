/**
 * The transfer sender on its own, against an in-process simulator daemon: what it records and reports for a sent
 * transaction, a contract install's SCID, the pending-transaction rule, and every refusal by its code with nothing
 * sent.
 */
import type { Test } from 'tap';
import t from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../core-native/ts/scalar.js';
import { UmbraError } from '../../core-native/ts/errors.js';
import { encodeAddress } from '../../protocol/address.js';
import { premineKey, premineSecret } from '../../protocol/premine.js';
import { AccountRegistration } from '../../wallet/account-registration.js';
import { installArgs } from '../../wallet/contract-args.js';
import { DaemonClient } from '../../wallet/daemon-client.js';
import { DaemonAccess } from '../../wallet/chain-access/daemon-access.js';
import { OwnBalances } from '../../wallet/own-balances.js';
import { TransferHistory } from '../../wallet/transfer-history.js';
import { TransferSender, type TransferItem } from '../../wallet/transfer-sender.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';
import { walletContext } from '../../wallet/wallet-context.js';
import { WalletErrorCode } from '../../wallet/wallet-error.js';
import { walletKeys } from '../../wallet/wallet-keys.js';
import { rpcCall, startTestApp } from '../helpers/app.js';
import { autoMine, mined, TEST_BALANCE_TABLE_DIR } from '../helpers/wallet-app.js';

const core = await loadCore();
const FAST_REGISTRATION = { pollMs: 20, timeoutMs: 30_000 };

/** A sender for the wallet of `secretKey` on `daemonUrl`, with its history and the assets it reported. */
function senderOf(secretKey: Uint8Array, daemonUrl: string) {
  const keys = walletKeys(core, 'simulator', secretKey);
  const daemon = new DaemonClient(daemonUrl);
  const context = walletContext(core, keys, daemon, new DaemonAccess(daemon, keys.address), TEST_BALANCE_TABLE_DIR);
  const registration = new AccountRegistration(core, keys, daemon, context.access, FAST_REGISTRATION);
  const history = new TransferHistory();
  const reported: string[][] = [];
  const sender = new TransferSender(context, {
    registration,
    history,
    balances: new OwnBalances(context.decoder, secretKey),
    onSent: (assets) => reported.push(assets),
  });
  return { sender, history, reported, registration, secretKey, address: context.keys.address };
}

const pay = (destination: string, amount: bigint, more: Partial<TransferItem> = {}): TransferItem => ({
  destination,
  amount,
  scid: NATIVE_ASSET,
  burn: 0n,
  payloadRpc: [],
  ...more,
});

/** Asserts that `sending` fails with a WalletError of `code`. */
async function refused(t: Test, sending: Promise<string>, code: WalletErrorCode, message?: RegExp): Promise<void> {
  const error = await sending.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  t.ok(UmbraError.is(error, code), `refused with ${code}: ${(error as Error | undefined)?.message}`);
  if (message) t.match((error as Error).message, message);
}

t.test('transfer sender', async (t) => {
  const daemon = await startTestApp(t, { network: 'simulator' });
  const miner = autoMine(t, daemon.url, encodeAddress('simulator', premineKey(core, 'simulator')));
  const premine = senderOf(premineSecret(core, 'simulator'), daemon.url);
  const alice = senderOf(bigintToBytes32BE(randomScalar()), daemon.url);
  const pool = async (): Promise<unknown[]> => (await rpcCall(daemon.url, 'NODE.GetTxPool')).txs;

  await t.test('what cannot be sent is refused by its code, and nothing reaches the pool', async (t) => {
    await refused(
      t,
      premine.sender.send({ transfers: [pay(alice.address, 1n)], ringSize: 2 }),
      WalletErrorCode.DestinationUnregistered,
      /is not registered/,
    );
    await alice.registration.ensure();
    await refused(
      t,
      premine.sender.send({ transfers: [pay(premine.address, 1n)], ringSize: 2 }),
      WalletErrorCode.SendToSelf,
    );
    await refused(
      t,
      premine.sender.send({ transfers: [pay('umbt1nothing', 1n)], ringSize: 2 }),
      WalletErrorCode.UnknownDestination,
    );
    await refused(
      t,
      premine.sender.send({ transfers: [pay(alice.address, 1n)], ringSize: 128 }),
      WalletErrorCode.RingTooLarge,
      /^ring 128 needs 128 registered accounts; this chain has 2 — use ringsize 2, or leave ringsize out/,
    );
    await refused(
      t,
      premine.sender.send({
        transfers: [pay(alice.address, 1n, { payloadRpc: [{ name: 'C', datatype: 'S', value: 'x'.repeat(200) }] })],
        ringSize: 2,
      }),
      WalletErrorCode.PayloadTooLarge,
    );
    await refused(
      t,
      alice.sender.send({ transfers: [pay(premine.address, 1n)], ringSize: 2 }),
      WalletErrorCode.InsufficientBalance,
      /need 0\.00061 UMB .* have 0\.00000 UMB/,
    );
    t.same(await pool(), []);
    t.same(premine.history.entries(NATIVE_ASSET), [], 'nothing recorded');
    t.same(premine.reported, [], 'nothing reported');
  });

  await t.test('a sent transfer is recorded as an outgoing entry and its asset reported', async (t) => {
    const txid = await premine.sender.send({
      transfers: [pay(alice.address, 5000n, { payloadRpc: [{ name: 'D', datatype: 'U', value: 9n }] })],
      ringSize: 2,
    });
    t.match(txid, /^[0-9a-f]{64}$/);
    t.same(premine.reported, [[NATIVE_ASSET]]);
    const [entry] = premine.history.entries(NATIVE_ASSET);
    // Default fee (1 + 2) × 20 × (⌊2/16⌋ + 1) = 60.
    t.match(entry, {
      txid,
      incoming: false,
      amount: 5000n,
      fees: 60n,
      destination: alice.address,
      sender: premine.address,
      topoheight: -1,
      blockhash: '',
      args: [{ name: 'D', datatype: 'U', value: 9n }],
    });
    await mined(daemon.url);
    t.not(
      (await rpcCall(daemon.url, 'NODE.GetTransaction', { txs_hashes: [txid] })).txs[0].valid_block,
      '',
      'the daemon mined it',
    );
  });

  await t.test("a contract install reports its SCID, the install's txid", async (t) => {
    const code = 'Function Initialize() Uint64\n10 RETURN 0\nEnd Function\n';
    const txid = await premine.sender.send({ transfers: [], ringSize: 2, scRpc: installArgs(code) });
    t.same(premine.reported.at(-1), [NATIVE_ASSET, txid]);
    await mined(daemon.url);
  });

  await t.test(
    'while a transaction is in the pool the next one waits; the daemon refuses a double spend',
    async (t) => {
      miner.paused = true;
      const first = await alice.sender.send({ transfers: [pay(premine.address, 100n)], ringSize: 2 });
      await refused(
        t,
        alice.sender.send({ transfers: [pay(premine.address, 100n)], ringSize: 2 }),
        WalletErrorCode.PreviousTransactionPending,
        new RegExp(first),
      );
      // Another sender of the same wallet does not know the pending one: the daemon refuses the second spend.
      const twin = senderOf(alice.secretKey, daemon.url);
      await refused(
        t,
        twin.sender.send({ transfers: [pay(premine.address, 100n)], ringSize: 2 }),
        WalletErrorCode.DaemonRefused,
        /transaction rejected/,
      );
      t.equal((await pool()).length, 1);
      miner.paused = false;
      await mined(daemon.url);
      t.match(
        await alice.sender.send({ transfers: [pay(premine.address, 100n)], ringSize: 2 }),
        /^[0-9a-f]{64}$/,
        'once mined, the next one goes',
      );
      await mined(daemon.url);
    },
  );

  await t.test('a daemon that cannot be reached is the wallet error Daemon is offline', async (t) => {
    const away = senderOf(premineSecret(core, 'simulator'), 'http://127.0.0.1:9');
    await refused(
      t,
      away.sender.send({ transfers: [pay(alice.address, 1n)], ringSize: 2 }),
      WalletErrorCode.DaemonOffline,
      /^Daemon is offline \(cannot reach the daemon/,
    );
  });
});
