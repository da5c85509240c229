/**
 * Transfers end to end through the wallet RPC against an in-process simulator daemon that mines whenever its pool
 * holds a transaction: registration on first use, receiving from the premine wallet, rings of 2 and 16 (and the default
 * on a young chain), integrated addresses, the pending-transaction rule, and clear errors (no txid) for what cannot be
 * sent.
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
import { postRpc, rpcCall, startTestApp } from '../../../helpers/app.js';
import { autoMine, startWalletApp, testWallet } from '../../../helpers/wallet-app.js';

const core = await loadCore();
const { G } = core.generators('UMBRA');

let nextId = 1;
async function rpc(
  url: string,
  method: string,
  params?: unknown,
): Promise<{ result?: any; error?: { code: number; message: string } }> {
  return (await postRpc(url, { jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) }))
    .json;
}

const balance = async (url: string): Promise<number> => (await rpc(url, 'GetBalance')).result.balance;

/** Waits until the daemon's pool is empty (the auto-miner has mined what was sent). */
async function mined(daemonUrl: string): Promise<void> {
  while ((await rpcCall(daemonUrl, 'NODE.GetTxPool')).txs.length > 0)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

t.test('transfers through the wallet RPC', async (t) => {
  const daemon = await startTestApp(t, { network: 'simulator' });
  const premineAddress = encodeAddress('simulator', premineKey(core, 'simulator'));
  const miner = autoMine(t, daemon.url, premineAddress);
  const premine = await startWalletApp(t, testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url));
  const alice = testWallet(core, 'simulator', bigintToBytes32BE(randomScalar()), daemon.url);
  const bob = testWallet(core, 'simulator', bigintToBytes32BE(randomScalar()), daemon.url);
  const aliceUrl = await startWalletApp(t, alice);
  const bobUrl = await startWalletApp(t, bob);
  const start = await balance(premine);

  await t.test('an unregistered destination or a bad one is an error, not a txid', async (t) => {
    t.same(
      (await rpc(premine, 'transfer', { transfers: [{ destination: alice.address, amount: 1 }], ringsize: 2 })).error,
      {
        code: -32098,
        message: `destination ${alice.address} is not registered`,
        data: { code: 'wallet.destination-unregistered' },
      },
    );
    t.match(
      (await rpc(premine, 'transfer', { transfers: [{ destination: 'umbt1nothing', amount: 1 }], ringsize: 2 })).error,
      { code: -32098, message: /is neither an address .* nor a registered name/ },
    );
    const mainnet = encodeAddress('mainnet', premineKey(core, 'simulator'));
    t.match((await rpc(premine, 'transfer', { transfers: [{ destination: mainnet, amount: 1 }] })).error, {
      code: -32098,
      message: /is a mainnet address; this wallet is on simulator/,
    });
    t.match(
      (await rpc(premine, 'transfer', { transfers: [{ destination: premineAddress, amount: 1 }], ringsize: 2 })).error,
      { code: -32098, message: 'sending to self is not supported' },
    );
    t.match(
      (await rpc(premine, 'transfer', { transfers: [{ destination: alice.address, amount: 1 }], ringsize: 3 })).error,
      { code: -32602, message: /'ringsize' must be a power of two from 2 to 128, got 3/ },
    );
    t.match(
      (await rpc(premine, 'transfer', { transfers: [{ destination: alice.address, amount: 1 }], ringsize: 256 })).error,
      { code: -32602 },
    );
    t.match((await rpc(premine, 'transfer', {})).error, { code: -32602, message: /give 'transfers'/ });
    t.same((await rpcCall(daemon.url, 'NODE.GetTxPool')).txs, [], 'nothing was sent');
  });

  await t.test('the start-up step registers a new account and waits for its block', async (t) => {
    t.same((await rpc(aliceUrl, 'GetBalance')).error, {
      code: -32098,
      message: 'Account Unregistered',
      data: { code: 'wallet.account-unregistered' },
    });
    await alice.registration.ensure();
    t.equal(await balance(aliceUrl), 0, 'registered, empty');
  });

  await t.test('ring 2: the premine pays alice; both balances agree', async (t) => {
    const sent = (
      await rpc(premine, 'transfer', { transfers: [{ destination: alice.address, amount: 5000 }], ringsize: 2 })
    ).result;
    t.match(sent.txid, /^[0-9a-f]{64}$/);
    await mined(daemon.url);
    const record = (await rpcCall(daemon.url, 'NODE.GetTransaction', { txs_hashes: [sent.txid] })).txs[0];
    t.equal(record.ring[0].length, 2);
    t.equal(await balance(aliceUrl), 5000);
    // Fee (1 + 2) × 20 × (⌊2/16⌋ + 1) = 60; every block the premine mined added its reward.
    const height = (await rpcCall(daemon.url, 'NODE.GetInfo')).height;
    t.equal(await balance(premine), start + 61_500 * height - 5000 - 60 + 60, 'the premine mined the fee back');

    const { entry, scid } = (await rpc(premine, 'GetTransferbyTXID', { txid: sent.txid })).result;
    t.equal(scid, '0'.repeat(64));
    t.match(entry, {
      txid: sent.txid,
      incoming: false,
      coinbase: false,
      status: 1,
      destination: alice.address,
      amount: 5000,
      fees: 60,
      pos: 0,
      sender: premineAddress,
      payloadtype: 0,
      blockhash: record.valid_block,
      height: record.block_height,
    });
    t.match(entry.proof, /^umbproof1/);
    t.match(entry.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    t.equal(Buffer.from(entry.payload, 'base64').length, 144);
    t.same(
      (await rpc(premine, 'GetTransfers', { out: true })).result.entries.map((e: { txid: string }) => e.txid),
      [sent.txid],
    );
    t.same(
      (await rpc(premine, 'GetTransfers', { in: true })).result,
      {},
      'no incoming entries are recorded by sending',
    );
    t.ok(
      (await rpc(premine, 'GetTransfers', { coinbase: true })).result.entries.length > 0,
      'the blocks it mined are coinbase entries',
    );
    t.same((await rpc(premine, 'GetTransfers', { out: true, min_height: record.block_height + 1 })).result, {});
    t.match((await rpc(premine, 'GetTransferbyTXID', { txid: 'ab'.repeat(32) })).error, {
      code: -32098,
      message: `Transaction not found. TXID ${'ab'.repeat(32)}`,
    });
  });

  await t.test('registration on first use through transfer; insufficient funds is an error', async (t) => {
    const answer = await rpc(bobUrl, 'transfer', {
      transfers: [{ destination: alice.address, amount: 1 }],
      ringsize: 2,
    });
    t.match(answer.error, {
      code: -32098,
      message: /^insufficient funds: need 0\.00061 UMB \(amounts, burns and fee\), have 0\.00000 UMB$/,
    });
    t.equal(await balance(bobUrl), 0, 'bob is registered now');
  });

  await t.test(
    'without ringsize a young chain gets the largest ring it can fill; ringsize 16 needs 16 accounts',
    async (t) => {
      t.match(
        (await rpc(aliceUrl, 'transfer', { transfers: [{ destination: bob.address, amount: 1000 }], ringsize: 16 }))
          .error,
        {
          code: -32098,
          message:
            'ring 16 needs 16 registered accounts; this chain has 3 — use ringsize 2, or leave ringsize out for the largest ring it can fill',
        },
      );
      const lowered = (await rpc(aliceUrl, 'transfer', { transfers: [{ destination: bob.address, amount: 400 }] }))
        .result;
      await mined(daemon.url);
      t.equal(
        (await rpcCall(daemon.url, 'NODE.GetTransaction', { txs_hashes: [lowered.txid] })).txs[0].ring[0].length,
        2,
        'the default 16 became 2, all that 3 accounts can fill',
      );
      miner.paused = true;
      for (let i = 0; i < 14; i++)
        await rpcCall(daemon.url, 'NODE.SendRawTransaction', {
          tx_as_hex: toHex(encodeTransaction(makeRegistration(core, G, bigintToBytes32BE(randomScalar()), 0))),
        });
      miner.paused = false;
      await mined(daemon.url);
      const sent = (await rpc(aliceUrl, 'transfer', { transfers: [{ destination: bob.address, amount: 600 }] })).result;
      t.match(sent?.txid, /^[0-9a-f]{64}$/);
      await mined(daemon.url);
      t.equal(
        (await rpcCall(daemon.url, 'NODE.GetTransaction', { txs_hashes: [sent.txid] })).txs[0].ring[0].length,
        16,
      );
      t.equal(await balance(bobUrl), 1000);
      t.equal(await balance(aliceUrl), 5000 - 400 - 60 - 600 - 120, 'fees (1 + 2) × 20 at ring 2, twice that at 16');
    },
  );

  await t.test('several destinations in one transaction, an integrated address carrying a port', async (t) => {
    const integrated = (
      await rpc(bobUrl, 'MakeIntegratedAddress', { payload_rpc: [{ name: 'D', datatype: 'U', value: 777 }] })
    ).result.integrated_address;
    const sent = (
      await rpc(premine, 'transfer', {
        transfers: [
          { destination: integrated, amount: 300 },
          { destination: alice.address, amount: 200, payload_rpc: [{ name: 'C', datatype: 'S', value: 'hi' }] },
        ],
        ringsize: 4,
      })
    ).result;
    await mined(daemon.url);
    t.equal(await balance(bobUrl), 1300);
    t.equal(await balance(aliceUrl), 3820 + 200);
    // The formula gives (2 + 2) × 20 = 80; the pool's floor of 20 per started KiB wins when it is higher.
    const bytes =
      (await rpcCall(daemon.url, 'NODE.GetTransaction', { txs_hashes: [sent.txid] })).txs_as_hex[0].length / 2;
    const fees = Math.max(80, Math.ceil(bytes / 1024) * 20);
    const entries = (await rpc(premine, 'GetTransfers', { out: true, dstport: 777 })).result.entries;
    t.match(
      entries,
      [
        {
          txid: sent.txid,
          pos: 0,
          destination: bob.address,
          amount: 300,
          fees,
          dstport: 777,
          payload_rpc: [{ name: 'D', datatype: 'U', value: 777 }],
        },
      ],
      'the integrated address’s port is in the payload',
    );
    const toAlice = (await rpc(premine, 'GetTransfers', { out: true, receiver: alice.address })).result.entries;
    t.match(
      toAlice,
      [{ amount: 5000 }, { txid: sent.txid, pos: 1, amount: 200, fees: 0 }],
      'the fee is on the first native payload',
    );
  });

  await t.test('a second transfer while the first is pending is refused', async (t) => {
    miner.paused = true;
    const first = (await rpc(premine, 'transfer', { destination: bob.address, amount: 1, ringsize: 2 })).result;
    t.same((await rpc(premine, 'transfer', { destination: bob.address, amount: 2, ringsize: 2 })).error, {
      code: -32098,
      message: `a previous transaction ${first.txid} is not mined yet; send again once it is in a block`,
      data: { code: 'wallet.previous-transaction-pending' },
    });
    miner.paused = false;
    await mined(daemon.url);
    t.ok(
      (await rpc(premine, 'transfer', { destination: bob.address, amount: 2, ringsize: 2 })).result.txid,
      'accepted once the first is mined',
    );
    await mined(daemon.url);
    t.equal(await balance(bobUrl), 1303);
  });

  await t.test(
    "a transaction the daemon rejects gives its message, and the daemon's code beside the wallet's",
    async (t) => {
      const answer = await rpc(aliceUrl, 'scinvoke', {
        scid: 'ab'.repeat(32),
        sc_rpc: [{ name: 'entrypoint', datatype: 'S', value: 'Nope' }],
        force: true,
      });
      t.match(answer.error, {
        code: -32098,
        message: /^transaction rejected: /,
        data: { code: 'wallet.daemon-refused', daemon_code: 'tx.unknown-contract' },
      });
      t.notOk(answer.result);
    },
  );
});
