/** NODE.GetHeaders through a real daemon: the blocks and ids it serves, where it stops, bad params; a light client syncs from it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadCore } from '../../../../core-native/ts/index.js';
import { encodeAddress } from '../../../../protocol/address.js';
import { premineKey } from '../../../../protocol/premine.js';
import { MAX_HEADERS } from '../../../../plugins/consensus/rpc/header-methods.js';
import { DaemonClient } from '../../../../wallet/daemon-client.js';
import { LightClient } from '../../../../wallet/light-client/light-client.js';
import { mineOneViaRpc, postRpc, rpcCall, startTestApp } from '../../../helpers/app.js';

t.test('NODE.GetHeaders', async (t) => {
  const { url } = await startTestApp(t, { network: 'simulator' });
  const core = await loadCore();
  const premine = encodeAddress('simulator', premineKey(core, 'simulator'));
  for (let i = 0; i < 4; i++) await mineOneViaRpc(url, premine);
  let id = 0;
  const call = async (params: unknown) =>
    (await postRpc(url, { jsonrpc: '2.0', id: ++id, method: 'NODE.GetHeaders', params })).json;

  await t.test('the main chain from a topoheight on: each block as GetBlock serves it, with its id', async (t) => {
    const answer = (await call({ topoheight: 1, count: 2 })).result;
    t.match(answer, { top_topoheight: 4, status: 'OK' });
    t.equal(answer.headers.length, 2);
    for (const [i, header] of answer.headers.entries()) {
      const block = await rpcCall(url, 'NODE.GetBlock', { height: 1 + i });
      t.same(header, {
        hash: block.block_header.hash,
        blob: block.blob,
        difficulty: '1',
        cumulative_difficulty: String(2 + i),
      });
      t.equal(Buffer.from(core.sha3_256(Buffer.from(header.blob, 'hex'))).toString('hex'), header.hash);
    }
    t.equal((await call({ topoheight: 0 })).result.headers.length, 5, 'without a count: up to the top');
    t.same((await call({ topoheight: 5, count: 3 })).result, { headers: [], top_topoheight: 4, status: 'OK' });
    t.same((await call({ topoheight: 900 })).result.headers, [], 'above the top: none');
  });

  await t.test('bad params: -32602 naming the field', async (t) => {
    const refused = async (params: unknown, message: RegExp) =>
      t.match((await call(params)).error, { code: -32602, message }, JSON.stringify(params));
    await refused({}, /'topoheight' must be a non-negative integer, got nothing/);
    await refused({ topoheight: -1 }, /'topoheight' must be a non-negative integer/);
    await refused({ topoheight: 0, count: 0 }, new RegExp(`'count' must be 1 … ${MAX_HEADERS}, got 0`));
    await refused({ topoheight: 0, count: MAX_HEADERS + 1 }, new RegExp(`'count' must be 1 … ${MAX_HEADERS}`));
  });

  await t.test('a light client checks and follows this daemon', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'umbra-get-headers-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const client = LightClient.open({ core, network: 'simulator', path: join(dir, 'w.headers') });
    const daemon = new DaemonClient(url);
    const top = await client.sync(daemon);
    const info = await rpcCall(url, 'NODE.GetInfo');
    t.equal(top.height, 4n);
    t.equal(Buffer.from(top.id).toString('hex'), info.top_block_hash);
    t.equal(Buffer.from(top.stateRoot).toString('hex'), info.treehash, 'the state root of the top');
    await mineOneViaRpc(url, premine);
    t.equal((await client.sync(daemon)).height, 5n, 'and its next block');
  });
});
