/** JSON-RPC over WebSocket on /ws, and server push. */
import t from 'tap';
import WebSocket from 'ws';
import { startTestApp } from '../../helpers/app.js';
import { WsClient } from '../../helpers/ws.js';

const connect = async (url: string, headers: Record<string, string> = {}): Promise<WebSocket> =>
  (await WsClient.connect(url, headers)).ws;

function nextMessage(ws: WebSocket): Promise<any> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
}

t.test('requests, batches, errors and push over WebSocket', async (t) => {
  const { url, app } = await startTestApp(t);
  const ws = await connect(url);
  t.teardown(() => ws.close());

  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'NODE.Echo', params: ['over', 'ws'] }));
  t.same(await nextMessage(ws), { jsonrpc: '2.0', id: 1, result: 'UMBRA over ws' });

  ws.send(
    JSON.stringify([
      { jsonrpc: '2.0', id: 'x', method: 'NODE.Ping' },
      { jsonrpc: '2.0', id: 'y', method: 'getnothing' },
    ]),
  );
  const batch = await nextMessage(ws);
  t.equal(batch[0].result, 'Pong ');
  t.equal(batch[1].error.code, -32601);

  ws.send('this is not json');
  const parse = await nextMessage(ws);
  t.equal(parse.error.code, -32700, 'malformed JSON gets a JSON-RPC error, the connection stays');

  const daemon = app.container.cradle.rpcEndpoints.get('daemon');
  const pushed = nextMessage(ws);
  daemon.notify('Block');
  t.same(await pushed, { jsonrpc: '2.0', method: 'Block' }, 'server push');

  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'NODE.Ping' }));
  t.equal((await nextMessage(ws)).result, 'Pong ', 'still answering after a push');
});

t.test('WebSocket honours Basic auth and the path', async (t) => {
  const { url } = await startTestApp(t, { rpcLogin: 'bob:pw' });
  await t.rejects(connect(url), /HTTP 401/);
  const ws = await connect(url, { Authorization: 'Basic ' + Buffer.from('bob:pw').toString('base64') });
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'NODE.Ping' }));
  t.equal((await nextMessage(ws)).result, 'Pong ');
  ws.close();
  await t.rejects(
    new Promise((resolve, reject) => {
      const other = new WebSocket(url.replace(/^http/, 'ws') + '/elsewhere');
      other.once('open', resolve);
      other.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      other.once('error', reject);
    }),
    /HTTP 404/,
  );
});

t.test('over WebSocket: batch caps, other clients served during a batch, deep nesting refused quietly', async (t) => {
  const { url, logLines } = await startTestApp(t);
  const ws = await connect(url);
  const other = await connect(url);
  t.teardown(() => {
    ws.close();
    other.close();
  });
  const getBlocks = (count: number): string =>
    JSON.stringify(
      Array.from({ length: count }, (_, id) => ({
        jsonrpc: '2.0',
        id,
        method: 'NODE.GetBlock',
        params: { height: 0 },
      })),
    );

  ws.send(getBlocks(40_000));
  t.same(await nextMessage(ws), {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: 'invalid request: a batch holds at most 1000 calls, this one has 40000; split it' },
  });

  const batch = nextMessage(ws);
  ws.send(getBlocks(1000));
  let batchAnswered = false;
  void batch.then(() => {
    batchAnswered = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 10));
  other.send(JSON.stringify({ jsonrpc: '2.0', id: 'p', method: 'NODE.Ping' }));
  t.equal((await nextMessage(other)).result, 'Pong ');
  t.notOk(batchAnswered, "another client's ping is answered before the batch");
  t.equal((await batch).length, 1000, 'the batch is answered in full');

  ws.send(`{"jsonrpc":"2.0","id":7,"method":"NODE.GetBlock","params":${'['.repeat(5000)}${']'.repeat(5000)}}`);
  t.same(await nextMessage(ws), {
    jsonrpc: '2.0',
    id: 7,
    error: {
      code: -32602,
      message: 'invalid params: nested more than 64 levels deep',
      data: { code: 'rpc.invalid-params' },
    },
  });
  t.notOk(
    logLines.some((line) => /RangeError|Maximum call stack/.test(line)),
    'no RangeError logged',
  );
});
