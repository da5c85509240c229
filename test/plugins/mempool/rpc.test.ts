/**
 * The pool and transaction queries through the daemon's JSON-RPC, as a wallet uses them: a registration and a
 * transfer built from what the RPC shows (GetInfo, GetEncryptedBalance), sent with NODE.SendRawTransaction, seen in
 * NODE.GetTxPool and NODE.GetTransaction while pending and after they are mined; bad input gets clear errors.
 */
import t from 'tap';
import { bigintToBytes32BE } from '../../../core-native/ts/bigint-bytes.js';
import { loadCore } from '../../../core-native/ts/index.js';
import { encodeAddress } from '../../../protocol/address.js';
import { fromHex, toHex } from '../../../protocol/bytes.js';
import { decodeNonceBalance, type NonceBalance } from '../../../protocol/nonce-balance.js';
import { makeRegistration } from '../../../protocol/registration.js';
import { encodeRpcArguments } from '../../../protocol/rpc-arguments.js';
import { buildTransfer } from '../../../protocol/transfer-builder.js';
import { NATIVE_SCID } from '../../../protocol/transfer-checks.js';
import { encodeTransaction, TxType } from '../../../protocol/transaction.js';
import { premineKey, premineSecret } from '../../../protocol/premine.js';
import { mineOneViaRpc, rpcCall, startTestApp } from '../../helpers/app.js';

const core = await loadCore();
const gens = core.generators('UMBRA');
const call = rpcCall;
const mineOne = mineOneViaRpc;

t.test('registration and transfer through SendRawTransaction, GetTxPool and GetTransaction', async (t) => {
  const { url } = await startTestApp(t, { network: 'simulator' });
  const premine = encodeAddress('simulator', premineKey(core, 'simulator'));
  const aliceSecret = core.keccak256(new TextEncoder().encode('alice'));
  const aliceKey = core.g1Compress(core.g1MulSecret(gens.G, aliceSecret));
  const alice = encodeAddress('simulator', aliceKey);

  const registration = encodeTransaction(makeRegistration(core, gens.G, aliceSecret, 0));
  const sent = await call(url, 'NODE.SendRawTransaction', { tx_as_hex: toHex(registration) });
  t.equal(sent.status, 'OK');
  t.same((await call(url, 'NODE.GetTxPool')).txs, [sent.txid]);
  let record = await call(url, 'NODE.GetTransaction', { txs_hashes: [sent.txid] });
  t.same(
    [record.txs[0].in_pool, record.txs[0].block_height, record.txs_as_hex[0]],
    [true, -1, toHex(registration)],
    'pending',
  );
  await t.rejects(call(url, 'NODE.GetEncryptedBalance', { address: alice }), /Account Unregistered/);
  const blid = await mineOne(url, premine);
  t.same((await call(url, 'NODE.GetTxPool')).txs, [], 'mined transactions leave the pool');
  record = await call(url, 'NODE.GetTransaction', { txs_hashes: [sent.txid] });
  t.same(
    [record.txs[0].in_pool, record.txs[0].block_height, record.txs[0].valid_block, record.txs[0].ring],
    [false, 1, blid, null],
    'mined',
  );
  await t.rejects(call(url, 'NODE.SendRawTransaction', { tx_as_hex: toHex(registration) }), /already in a block/);

  // A transfer built the way a wallet builds one: reference block and ring balances from the RPC.
  const info = await call(url, 'NODE.GetInfo');
  const balances = new Map<string, NonceBalance>();
  for (const [address, key] of [
    [premine, premineKey(core, 'simulator')],
    [alice, aliceKey],
  ] as const) {
    const { data } = await call(url, 'NODE.GetEncryptedBalance', { address, topoheight: info.topoheight });
    balances.set(toHex(key), decodeNonceBalance(fromHex(data)));
  }
  const built = buildTransfer(core, gens, {
    type: TxType.Normal,
    secretKey: premineSecret(core, 'simulator'),
    reference: {
      height: BigInt(info.height),
      blid: fromHex(info.top_block_hash, 32),
      roothash: fromHex(info.treehash, 32),
    },
    payloads: [
      {
        scid: NATIVE_SCID,
        ring: [premineKey(core, 'simulator'), aliceKey],
        senderIndex: 0,
        receiverIndex: 1,
        amount: 4321n,
        burn: 0n,
        fee: 100n,
        args: encodeRpcArguments([{ name: 'C', datatype: 'S', value: 'hello' }]),
      },
    ],
    balanceAt: (_asset, key) => balances.get(toHex(key)),
    senderBalance: () => 2_000_000_000_000n + 61_500n,
  });
  const transfer = await call(url, 'NODE.SendRawTransaction', { tx_as_hex: toHex(built.bytes) });
  t.equal(transfer.txid, toHex(built.txid));
  record = await call(url, 'NODE.GetTransaction', { txs_hashes: [transfer.txid, 'ab'.repeat(32)] });
  t.same(record.txs[0].ring, [[premine, alice]], 'the ring as addresses');
  t.equal(record.txs[0].signer, premine, 'a ring of 2 reveals the signer');
  t.same(
    [record.txs_as_hex[1], record.txs[1].in_pool, record.txs[1].block_height],
    ['', false, 0],
    'an unknown hash gives an empty record',
  );
  await mineOne(url, premine);
  const mined = (await call(url, 'NODE.GetTransaction', { txs_hashes: [transfer.txid] })).txs[0];
  t.same([mined.in_pool, mined.block_height], [false, 2]);
  const after = decodeNonceBalance(fromHex((await call(url, 'NODE.GetEncryptedBalance', { address: alice })).data));
  const point = core.g1Sub(core.g1Decompress(after.L), core.g1MulSecret(core.g1Decompress(after.R), aliceSecret));
  t.equal(toHex(point), toHex(core.g1Mul(gens.G, bigintToBytes32BE(4321n))), 'alice decrypts 4321');
  const info2 = await call(url, 'NODE.GetInfo');
  t.same(
    [info2.tx_pool_size, info2.tx_count, info2.total_supply],
    [0, 2, 20_000_001],
    'GetInfo counts the mined transactions and the supply (coins)',
  );
});

t.test('bad transactions and requests get clear errors', async (t) => {
  const { url } = await startTestApp(t, { network: 'simulator' });
  await t.rejects(call(url, 'NODE.SendRawTransaction', { tx_as_hex: 'zz' }), { code: -32602 });
  await t.rejects(call(url, 'NODE.SendRawTransaction', { tx_as_hex: '0101' }), {
    code: -32098,
    message: /transaction rejected: malformed transaction/,
  });
  await t.rejects(call(url, 'NODE.SendRawTransaction', { tx_as_hex: '' }), /empty/);
  await t.rejects(call(url, 'NODE.SendRawTransaction', {}), { code: -32602 });
  await t.rejects(call(url, 'NODE.GetTransaction', { txs_hashes: ['xyz'] }), { code: -32602 });
  t.same((await call(url, 'NODE.GetTxPool')).txs, []);
});
