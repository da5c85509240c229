/** Subscribe and Unsubscribe on /ws: topic lists, errors naming unknown topics, and who hears what. */
import t from 'tap';
import { rpcCall, startTestApp } from '../../helpers/app.js';
import { WsClient } from '../../helpers/ws.js';

t.test('Subscribe and Unsubscribe answer the subscribed topics', async (t) => {
  const { url } = await startTestApp(t);
  const client = await WsClient.connect(url);
  t.teardown(() => client.close());

  t.same((await client.request('Subscribe', { topics: ['tx', 'block'] })).result, {
    topics: ['block', 'tx'],
    status: 'OK',
  });
  t.same((await client.request('subscribe', { topics: ['reorg', 'tx'] })).result.topics, ['block', 'reorg', 'tx']);
  t.same((await client.request('Unsubscribe', { topics: ['block'] })).result.topics, ['reorg', 'tx']);
  t.same((await client.request('Unsubscribe')).result, { topics: [], status: 'OK' }, 'no topics: every topic');
});

t.test('unknown topics and bad params are -32602 naming them and the known topics', async (t) => {
  const { url } = await startTestApp(t);
  const client = await WsClient.connect(url);
  t.teardown(() => client.close());

  t.same((await client.request('Subscribe', { topics: ['block', 'blocks'] })).error, {
    code: -32602,
    message: "invalid params: unknown topic 'blocks' (known topics: block, reorg, tx)",
    data: { code: 'rpc.invalid-params' },
  });
  t.equal(
    (await client.request('Unsubscribe', { topics: ['pool', 'height'] })).error.message,
    "invalid params: unknown topics 'pool', 'height' (known topics: block, reorg, tx)",
  );
  t.match((await client.request('Subscribe', { topics: 'block' })).error, {
    code: -32602,
    message: 'invalid params: \'topics\' must be an array, got string "block"',
  });
  t.match((await client.request('Subscribe')).error, { code: -32602, message: /'topics' must be an array/ });
  t.same((await client.request('Unsubscribe')).result.topics, [], 'a refused Subscribe subscribed to nothing');
});

t.test('over HTTP there is nothing to push to', async (t) => {
  const { url } = await startTestApp(t);
  await t.rejects(rpcCall(url, 'Subscribe', { topics: ['block'] }), {
    code: -32098,
    message: 'Subscribe works on the WebSocket /ws only: HTTP has no push',
    data: { code: 'rpc.websocket-only' },
  });
});

t.test('a client that never subscribes hears the plain notifications only; a subscriber only its topics', async (t) => {
  const { url, app } = await startTestApp(t);
  const daemon = app.container.cradle.rpcEndpoints.get('daemon');
  const plain = await WsClient.connect(url);
  const subscriber = await WsClient.connect(url);
  const silent = await WsClient.connect(url);
  t.teardown(() => [plain, subscriber, silent].forEach((client) => client.close()));
  await subscriber.request('Subscribe', { topics: ['block'] });
  await silent.request('Subscribe', { topics: [] });

  let computed = 0;
  daemon.notify('Block');
  daemon.publish('tx', () => ({ txid: 'nobody listens', size: computed++ }));
  daemon.publish('block', () => ({ block_header: { height: 7 } }));
  daemon.notify('Height');
  await plain.waitFor((m) => m.method === 'Height', 'Height');
  await subscriber.waitFor((m) => m.method === 'block', 'block');
  // One more round trip: anything else pushed before it has arrived by now.
  await subscriber.request('NODE.Ping');
  await silent.request('NODE.Ping');

  t.same(plain.pushed, [
    { jsonrpc: '2.0', method: 'Block' },
    { jsonrpc: '2.0', method: 'Height' },
  ]);
  t.same(subscriber.pushed, [{ jsonrpc: '2.0', method: 'block', params: { block_header: { height: 7 } } }]);
  t.same(silent.pushed, [], 'subscribed to nothing: hears nothing');
  t.equal(computed, 0, "a topic's data is not even computed when nobody subscribed to it");
});
