/** wallet/http-post.ts: the status and text of any answer, the socket's error code, a timeout of its own. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { HttpTimeoutError, postText } from '../../wallet/http-post.js';

async function serve(t: Test, handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/json_rpc`;
}

t.test('posts the body with its headers and reads the answer, whatever its status', async (t) => {
  const url = await serve(t, (request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      response.statusCode = request.headers.authorization === 'Basic eA==' ? 200 : 401;
      response.end(`${request.method} ${request.headers['content-type']} ${body} ✓`);
    });
  });
  const headers = { 'Content-Type': 'application/json', Authorization: 'Basic eA==' };
  t.same(await postText(url, '{"a":"é"}', headers, 5000), {
    status: 200,
    text: 'POST application/json {"a":"é"} ✓',
  });
  t.equal((await postText(url, '{}', {}, 5000)).status, 401);
});

t.test('a daemon that is not there: the socket error and its code', async (t) => {
  const url = await serve(t, () => undefined);
  const closed = url.replace(/:\d+\//, ':1/');
  await t.rejects(postText(closed, '{}', {}, 5000), { code: 'ECONNREFUSED' });
});

t.test('no answer in time: an HttpTimeoutError saying how long it waited', async (t) => {
  const url = await serve(t, () => undefined);
  const error = await postText(url, '{}', {}, 100).catch((e: unknown) => e);
  t.type(error, HttpTimeoutError);
  t.equal((error as Error).message, 'no answer within 100 ms');
});
