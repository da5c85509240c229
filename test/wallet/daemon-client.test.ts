/** The wallet's daemon client: address forms, and every way a daemon can fail to answer. */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { UmbraError } from '../../core-native/ts/errors.js';
import {
  DaemonClient,
  DaemonClientErrorCode,
  DaemonRpcError,
  DaemonUnavailableError,
  daemonRpcUrl,
} from '../../wallet/daemon-client.js';
import { startTestApp } from '../helpers/app.js';

t.test('daemon addresses', async (t) => {
  t.equal(daemonRpcUrl('127.0.0.1:40402'), 'http://127.0.0.1:40402/json_rpc');
  t.equal(daemonRpcUrl('http://node.example:10102'), 'http://node.example:10102/json_rpc');
  t.equal(
    daemonRpcUrl('https://node.example/rpc/json_rpc'),
    'https://node.example/rpc/json_rpc',
    'a given path is kept',
  );
  t.throws(
    () => daemonRpcUrl('http://[nope'),
    /daemon address must be host:port or an http\(s\) URL, got "http:\/\/\[nope"/,
  );
  t.throws(() => daemonRpcUrl('http://[nope'), { code: DaemonClientErrorCode.BadAddress });
});

t.test('a daemon behind --rpc-login: user:pass@ in the address becomes HTTP Basic auth, never shown', async (t) => {
  const { url } = await startTestApp(t, { network: 'simulator', rpcLogin: 'alice:s3cr:et' });
  const port = new URL(url).port;
  const client = new DaemonClient(`http://alice:s3cr%3Aet@127.0.0.1:${port}`);
  t.equal(client.url, `http://127.0.0.1:${port}/json_rpc`, 'the URL it shows has no credentials');
  t.equal((await client.getHeight()).height, 0);
  await t.rejects(
    new DaemonClient(`127.0.0.1:${port}`).getHeight(),
    /wants a login \(HTTP 401\): give it as http:\/\/USER:PASS@HOST:PORT/,
    'refused without them, saying how to give them',
  );
  await t.rejects(new DaemonClient(`http://alice:wrong@127.0.0.1:${port}`).getHeight(), DaemonUnavailableError);
});

t.test('answers, JSON-RPC errors and non-JSON-RPC answers', async (t) => {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (d) => (body += d));
    request.on('end', () => {
      const { id, method } = JSON.parse(body);
      if (method === 'NODE.GetHeight')
        return response.end(
          JSON.stringify({ jsonrpc: '2.0', id, result: { height: 7, stableheight: 0, topoheight: 7 } }),
        );
      if (method === 'NODE.GetEncryptedBalance')
        return response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            error: { code: -32098, message: 'Account Unregistered', data: { code: 'query.account-unregistered' } },
          }),
        );
      response.writeHead(502).end('bad gateway');
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => server.close());
  const client = new DaemonClient(`127.0.0.1:${(server.address() as AddressInfo).port}`);
  t.same(await client.getHeight(), { height: 7, stableheight: 0, topoheight: 7 });
  await t.rejects(
    client.getEncryptedBalance('umbt1x', '0'.repeat(64)),
    new DaemonRpcError(-32098, 'Account Unregistered', { code: 'query.account-unregistered' }),
  );
  const failure = client.call('NODE.Other');
  await t.rejects(failure, DaemonUnavailableError);
  await t.rejects(failure, /answered HTTP 502 without JSON-RPC: bad gateway/);
  await t.rejects(failure, { code: DaemonClientErrorCode.Unavailable });
  const unregistered = await client.getEncryptedBalance('umbt1x', '0'.repeat(64)).catch((error: unknown) => error);
  t.ok(UmbraError.is(unregistered, DaemonClientErrorCode.AccountUnregistered), 'recognised by its code');
  t.equal((unregistered as DaemonRpcError).rpcCode, -32098, "and carries the daemon's JSON-RPC code");
});

t.test("error answers are classified by the daemon's error code in data, never by their text", async (t) => {
  const codeOf = (rpcCode: number, message: string, data?: unknown): DaemonClientErrorCode =>
    new DaemonRpcError(rpcCode, message, data).code;
  t.equal(
    codeOf(-32098, 'Account Unregistered', { code: 'query.account-unregistered' }),
    DaemonClientErrorCode.AccountUnregistered,
  );
  t.equal(
    codeOf(-32098, 'Account Unregistered'),
    DaemonClientErrorCode.Refused,
    'the words without the code are not the answer',
  );
  t.equal(
    codeOf(-32098, 'transaction rejected: a registration of this key is already pending (ab12)', {
      code: 'tx.registration-pending',
    }),
    DaemonClientErrorCode.RegistrationPending,
  );
  const wouldFail = new DaemonRpcError(-32098, 'the call would fail: 1', {
    code: 'query.call-would-fail',
    failure: '1',
  });
  t.equal(wouldFail.code, DaemonClientErrorCode.ContractCallWouldFail);
  t.same(wouldFail.data, { code: 'query.call-would-fail', failure: '1' }, 'the details are kept');
  t.equal(
    codeOf(-32098, 'transaction rejected: fee 1 is below the minimum', { code: 'tx.fee-too-low' }),
    DaemonClientErrorCode.Refused,
  );
  t.equal(codeOf(-32601, 'method not found: NODE.X', 'NODE.X'), DaemonClientErrorCode.Unsupported);
  t.same(
    new DaemonRpcError(-32601, 'method not found: NODE.X', 'NODE.X').data,
    {},
    'data that is no object is left out',
  );
  t.equal(codeOf(-32098, 'odd', { code: 7 }), DaemonClientErrorCode.Refused, 'a code that is no string is ignored');
});
