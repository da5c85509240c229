/** Every JSON-RPC and HTTP error path of the daemon's HTTP transport, through a real server on loopback. */
import { request as httpRequest } from 'node:http';
import t from 'tap';
import { postRpc, startTestApp } from '../../helpers/app.js';

t.test('daemon JSON-RPC over HTTP', async (t) => {
  const { url, app } = await startTestApp(t, { rpcMaxBodyBytes: 2048 });
  const rpc = (body: unknown, headers?: Record<string, string>) => postRpc(url, body, headers);

  t.test('NODE.Echo and NODE.Ping', async (t) => {
    const echo = await rpc({ jsonrpc: '2.0', id: 1, method: 'NODE.Echo', params: ['hello', 'world'] });
    t.equal(echo.status, 200);
    t.match(echo.headers.get('content-type'), /^application\/json/);
    t.same(echo.json, { jsonrpc: '2.0', id: 1, result: 'UMBRA hello world' });
    t.same(
      (await rpc({ jsonrpc: '2.0', id: 'a', method: 'NODE.Echo' })).json.result,
      'UMBRA',
      'no params: just the label',
    );
    t.same((await rpc({ jsonrpc: '2.0', id: 2, method: 'DAEMON.Echo', params: ['x'] })).json.result, 'DAEMON x');
    t.same((await rpc({ jsonrpc: '2.0', id: 3, method: 'NODE.Ping' })).json, {
      jsonrpc: '2.0',
      id: 3,
      result: 'Pong ',
    });
    t.same(
      (await rpc({ jsonrpc: '2.0', id: 4, method: 'node.ping', params: [] })).json.result,
      'Pong ',
      'case-insensitive, empty params accepted',
    );
  });

  t.test('ids are echoed as given', async (t) => {
    t.equal((await rpc({ jsonrpc: '2.0', id: 'abc-1', method: 'NODE.Ping' })).json.id, 'abc-1');
    t.equal((await rpc({ jsonrpc: '2.0', id: 0, method: 'NODE.Ping' })).json.id, 0);
    t.equal((await rpc({ jsonrpc: '2.0', id: null, method: 'NODE.Ping' })).json.id, null);
  });

  t.test('batches keep order and omit notifications', async (t) => {
    const batch = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'NODE.Ping' },
      { jsonrpc: '2.0', method: 'NODE.Ping' },
      { jsonrpc: '2.0', id: 2, method: 'NODE.Echo', params: ['b'] },
      { jsonrpc: '2.0', id: 3, method: 'NODE.Nope' },
    ]);
    t.equal(batch.status, 200);
    t.same(
      batch.json.map((r: any) => r.id),
      [1, 2, 3],
    );
    t.equal(batch.json[1].result, 'UMBRA b');
    t.equal(batch.json[2].error.code, -32601);
    const one = await rpc([{ jsonrpc: '2.0', id: 9, method: 'NODE.Ping' }]);
    t.ok(Array.isArray(one.json), 'a batch of one is answered with an array');
    const empty = await rpc([]);
    t.same(empty.json.error.code, -32600, 'empty batch');
  });

  t.test('notifications are answered with 204 and no body', async (t) => {
    const single = await rpc({ jsonrpc: '2.0', method: 'NODE.Ping' });
    t.equal(single.status, 204);
    t.equal(single.text, '');
    const allNotifications = await rpc([
      { jsonrpc: '2.0', method: 'NODE.Ping' },
      { jsonrpc: '2.0', method: 'NODE.Missing' },
    ]);
    t.equal(allNotifications.status, 204);
  });

  t.test('error codes', async (t) => {
    const parse = await rpc('{"jsonrpc": "2.0", "method": ');
    t.equal(parse.status, 200, 'parse errors are a JSON-RPC response');
    t.equal(parse.json.error.code, -32700);
    t.equal(parse.json.id, null);
    t.match(parse.json.error.message, /^parse error/);

    const noVersion = await rpc({ id: 5, method: 'NODE.Ping' });
    t.same(noVersion.json.error.code, -32600);
    t.equal(noVersion.json.id, 5, 'the id of an invalid request is echoed when it is valid');
    t.match(noVersion.json.error.message, /'jsonrpc' must be "2.0"/);
    t.equal((await rpc({ jsonrpc: '2.0', id: 1 })).json.error.code, -32600, 'missing method');
    t.equal(
      (await rpc({ jsonrpc: '2.0', id: 1, method: 'NODE.Ping', params: 'x' })).json.error.code,
      -32600,
      'params not object/array',
    );
    t.equal((await rpc({ jsonrpc: '2.0', id: {}, method: 'NODE.Ping' })).json.error.code, -32600, 'bad id');
    t.equal((await rpc(42)).json.error.code, -32600, 'not an object');

    const unknown = await rpc({ jsonrpc: '2.0', id: 1, method: 'NODE.Teleport' });
    t.same(unknown.json.error, { code: -32601, message: 'method not found: NODE.Teleport', data: 'NODE.Teleport' });

    const badParam = await rpc({ jsonrpc: '2.0', id: 1, method: 'NODE.Echo', params: ['ok', 7] });
    t.equal(badParam.json.error.code, -32602);
    t.match(badParam.json.error.message, /params\[1\]/, 'the message names the bad field');
    const pingWithParams = await rpc({ jsonrpc: '2.0', id: 1, method: 'NODE.Ping', params: { x: 1 } });
    t.equal(pingWithParams.json.error.code, -32602);
    t.match(pingWithParams.json.error.message, /takes no parameters/);
    for (const response of [parse, noVersion, unknown, badParam])
      t.notMatch(response.text, /\bat .*\.js:\d+/, 'never a stack trace');
  });

  t.test('HTTP rules', async (t) => {
    const get = await fetch(`${url}/json_rpc`);
    t.equal(get.status, 405);
    t.equal(get.headers.get('allow'), 'POST');
    const charset = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'NODE.Ping' },
      { 'Content-Type': 'application/json; charset=utf-8' },
    );
    t.equal(charset.json.result, 'Pong ', 'charset parameter accepted');
    const text = await rpc({ jsonrpc: '2.0', id: 1, method: 'NODE.Ping' }, { 'Content-Type': 'text/plain' });
    t.equal(text.status, 415);
    t.match(text.text, /Content-Type must be application\/json/);
    const big = await rpc({ jsonrpc: '2.0', id: 1, method: 'NODE.Echo', params: ['x'.repeat(4096)] });
    t.equal(big.status, 413, 'body over the cap');
    t.equal(
      (await rpc({ jsonrpc: '2.0', id: 1, method: 'NODE.Ping' })).json.result,
      'Pong ',
      'the server keeps working after a 413',
    );
    const home = await fetch(`${url}/`);
    t.equal(home.status, 200);
    t.match(await home.text(), /Umbra daemon/);
    t.equal((await fetch(`${url}/nowhere`)).status, 404);
    t.equal((await fetch(`${url}/ws`)).status, 400, 'GET /ws without an upgrade');
  });

  t.test('a body that exceeds the cap while streaming (no content-length) gets 413', async (t) => {
    const { port } = new URL(url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/json_rpc',
          headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write('[' + '1,'.repeat(1500));
      req.end('1]');
    });
    t.equal(status, 413);
  });

  t.ok(app.plugins.some((p) => p.name === 'rpc-http'));
});

t.test('HTTP Basic auth', async (t) => {
  const { url } = await startTestApp(t, { rpcLogin: 'alice:s3cret' });
  const ping = { jsonrpc: '2.0', id: 1, method: 'NODE.Ping' };
  const none = await postRpc(url, ping);
  t.equal(none.status, 401);
  t.match(none.headers.get('www-authenticate'), /^Basic/);
  const wrong = await postRpc(url, ping, { Authorization: 'Basic ' + Buffer.from('alice:wrong').toString('base64') });
  t.equal(wrong.status, 401);
  const good = await postRpc(url, ping, { Authorization: 'Basic ' + Buffer.from('alice:s3cret').toString('base64') });
  t.equal(good.status, 200);
  t.equal(good.json.result, 'Pong ');
  t.equal((await fetch(`${url}/`)).status, 200, 'the greeting stays open');
});

t.test(
  'a prefix route serves GET for every path under it, with the path, query and headers; other methods get 405',
  async (t) => {
    const { url, app } = await startTestApp(t, { rpcLogin: 'alice:s3cret', plugins: ['consensus'] });
    const seen: { path: string; query: string }[] = [];
    app.container.cradle.rpcEndpoints.get('daemon').addPrefixRoute('/things/', async (request) => {
      seen.push({ path: request.path, query: request.query.toString() });
      return { status: 302, body: '', contentType: 'text/html', headers: { Location: '/things/elsewhere' } };
    });
    const auth = { Authorization: 'Basic ' + Buffer.from('alice:s3cret').toString('base64') };
    t.equal((await fetch(`${url}/things/a`)).status, 401, 'behind --rpc-login like /json_rpc');
    const answer = await fetch(`${url}/things/a/b?q=1&format=json`, { headers: auth, redirect: 'manual' });
    t.equal(answer.status, 302);
    t.equal(answer.headers.get('location'), '/things/elsewhere', "the route's headers are sent");
    t.same(seen, [{ path: '/things/a/b', query: 'q=1&format=json' }]);
    const post = await fetch(`${url}/things/a`, { method: 'POST', headers: auth, body: 'x' });
    t.equal(post.status, 405);
    t.equal(post.headers.get('allow'), 'GET, HEAD');
    t.equal((await fetch(`${url}/thingsx`, { headers: auth })).status, 404, 'outside the prefix: no such path');
  },
);

t.test('a busy port is a clear start-up error', async (t) => {
  const { url } = await startTestApp(t);
  const port = new URL(url).port;
  await t.rejects(startTestApp(t, { rpcBind: `127.0.0.1:${port}` }), {
    message: `cannot listen on 127.0.0.1:${port} for the daemon RPC server: address already in use`,
  });
});

t.test('over HTTP: batch caps, other clients served during a batch, deep nesting refused quietly', async (t) => {
  const { url, logLines } = await startTestApp(t);
  const getBlocks = (count: number): unknown[] =>
    Array.from({ length: count }, (_, id) => ({ jsonrpc: '2.0', id, method: 'NODE.GetBlock', params: { height: 0 } }));
  const ping = { jsonrpc: '2.0', id: 'p', method: 'NODE.Ping' };

  t.test('40 000 NODE.GetBlock calls are one -32600 error, answered at once, with no answer built', async (t) => {
    const body = JSON.stringify(getBlocks(40_000));
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const refused = await postRpc(url, body);
    const took = performance.now() - started;
    const grown = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    t.comment(
      `${(body.length / 2 ** 20).toFixed(1)} MiB batch refused in ${took.toFixed(0)} ms, RSS +${grown.toFixed(1)} MiB`,
    );
    t.same(refused.json, {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'invalid request: a batch holds at most 1000 calls, this one has 40000; split it',
      },
    });
    t.ok(took < 3000, 'answered in seconds, not the 12.7 s of building 236 MiB');
    t.ok(grown < 100, 'memory stays small (was 1.5 GiB)');
  });

  t.test('a ping from another client is answered while a batch of 1000 GetBlock calls runs', async (t) => {
    const started = performance.now();
    let batchDone = 0;
    // The server writes its answer at once when the batch is done: the headers mark that moment (reading and parsing
    // the body happen later, in this same process).
    const batch = fetch(`${url}/json_rpc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(getBlocks(1000)),
    }).then((response) => {
      batchDone = performance.now();
      return response.json() as Promise<any[]>;
    });
    const pingLatencies: number[] = [];
    while (batchDone === 0) {
      const sent = performance.now();
      const pong = await postRpc(url, ping);
      t.equal(pong.json.result, 'Pong ');
      if (batchDone === 0) pingLatencies.push(performance.now() - sent);
    }
    const answers = await batch;
    t.equal(answers.length, 1000, 'the batch is answered in full');
    t.ok(answers.every((answer: any) => answer.result?.block_header?.height === 0));
    t.comment(
      `batch ${(batchDone - started).toFixed(0)} ms; ${pingLatencies.length} pings answered meanwhile, slowest ${Math.max(...pingLatencies).toFixed(1)} ms`,
    );
    // Without letting others in, at most the one ping that arrives before the batch starts could be answered.
    t.ok(pingLatencies.length >= 2, 'pings are answered while the batch runs');
  });

  t.test('params nested 5000 levels deep are -32602, with no stack in the log', async (t) => {
    const nested = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const deep = await postRpc(url, `{"jsonrpc":"2.0","id":7,"method":"NODE.GetBlock","params":${nested}}`);
    const withHash = await postRpc(
      url,
      `{"jsonrpc":"2.0","id":8,"method":"NODE.GetBlock","params":{"hash":"${'1'.repeat(64)}","x":${nested}}}`,
    );
    for (const [answer, id] of [
      [deep, 7],
      [withHash, 8],
    ] as const)
      t.same(answer.json, {
        jsonrpc: '2.0',
        id,
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
});
