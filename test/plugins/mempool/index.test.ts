/**
 * The mempool plugin's `tx` push topic: txid, size and fee of each transaction the pool admits, and nothing else; and
 * the pool's own admission events, which mark what NODE.SendRawTransaction submitted as local (P2P stems those).
 */
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../../core-native/ts/scalar.js';
import { toHex } from '../../../protocol/bytes.js';
import { makeRegistration } from '../../../protocol/registration.js';
import { encodeTransaction } from '../../../protocol/transaction.js';
import { rpcCall, startTestApp } from '../../helpers/app.js';
import { WsClient } from '../../helpers/ws.js';
import type { PoolEntry } from '../../../host/services/tx-pool.js';

const core = await loadCore();
const { G } = core.generators('UMBRA');

t.test('tx: each admitted transaction with its txid, size and fee', async (t) => {
  const { url } = await startTestApp(t, { network: 'simulator' });
  const client = await WsClient.connect(url);
  t.teardown(() => client.close());
  t.same((await client.request('Subscribe', { topics: ['tx'] })).result.topics, ['tx']);

  const tx = toHex(encodeTransaction(makeRegistration(core, G, bigintToBytes32BE(randomScalar()), 0)));
  const { txid } = await rpcCall(url, 'NODE.SendRawTransaction', { tx_as_hex: tx });
  const pushed = await client.waitFor((m) => m.method === 'tx', 'tx');
  t.same(pushed.params, { txid, size: tx.length / 2, fee: 0 }, 'a registration pays no fee');
  const pool = await rpcCall(url, 'NODE.GetTxPool');
  t.same(pool.txs, [txid]);

  await t.rejects(rpcCall(url, 'NODE.SendRawTransaction', { tx_as_hex: tx }), /already in the pool/);
  await client.request('NODE.Ping');
  t.equal(client.of('tx').length, 1, 'a refused transaction is not pushed');
});

t.test(
  'a transaction sent through NODE.SendRawTransaction is admitted as local; one added directly is not',
  async (t) => {
    const { app, url } = await startTestApp(t, { network: 'simulator' });
    const pool = app.container.cradle.txPool;
    const entries: PoolEntry[] = [];
    pool.onAdd((entry) => entries.push(entry));
    const registration = () => encodeTransaction(makeRegistration(core, G, bigintToBytes32BE(randomScalar()), 0));
    const { txid } = await rpcCall(url, 'NODE.SendRawTransaction', { tx_as_hex: toHex(registration()) });
    const relayed = pool.add(registration());
    t.same(
      entries.map((entry) => [toHex(entry.txid), entry.local]),
      [
        [txid, true],
        [toHex(relayed), false],
      ],
    );
  },
);
