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
