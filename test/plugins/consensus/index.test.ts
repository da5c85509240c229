/**
 * The consensus plugin's push topics on a real simulator daemon: `block` carries each stored block's header exactly
 * as NODE.GetBlockHeaderByHash answers it; `reorg` the old and the new top when a heavier branch takes over; a
 * client that never subscribed keeps hearing the plain `Block` and `Height`.
 */
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { encodeAddress } from '../../../protocol/address.js';
import { premineKey } from '../../../protocol/premine.js';
import { mineOneViaRpc, rpcCall, startTestApp } from '../../helpers/app.js';
import { WsClient } from '../../helpers/ws.js';

const core = await loadCore();
const miner = encodeAddress('simulator', premineKey(core, 'simulator'));

t.test('block: the header of each new block, as GetBlockHeaderByHash answers it', async (t) => {
  const { url } = await startTestApp(t, { network: 'simulator' });
  const client = await WsClient.connect(url);
  t.teardown(() => client.close());
  t.same((await client.request('Subscribe', { topics: ['block'] })).result.topics, ['block']);

  for (let height = 1; height <= 2; height++) {
    const blid = await mineOneViaRpc(url, miner);
    const pushed = await client.waitFor((m) => m.params?.block_header?.hash === blid, `block ${height}`);
    const { block_header } = await rpcCall(url, 'NODE.GetBlockHeaderByHash', { hash: blid });
    t.same(pushed, { jsonrpc: '2.0', method: 'block', params: { block_header } }, `block ${height}`);
    t.equal(pushed.params.block_header.height, height);
  }
  t.same(
    client.pushed.map((m) => m.method),
    ['block', 'block'],
    'nothing else: no plain Block/Height once subscribed',
  );
});

t.test('reorg: the old and the new top when a heavier branch takes over', async (t) => {
  const a = await startTestApp(t, { network: 'simulator' });
  const b = await startTestApp(t, { network: 'simulator' });
  const subscriber = await WsClient.connect(a.url);
  const plain = await WsClient.connect(a.url);
  t.teardown(() => [subscriber, plain].forEach((client) => client.close()));
  const aBlocks = [await mineOneViaRpc(a.url, miner), await mineOneViaRpc(a.url, miner)];
  const bBlocks: string[] = [];
  for (let i = 0; i < 3; i++) bBlocks.push(await mineOneViaRpc(b.url, miner));
  await subscriber.request('Subscribe', { topics: ['reorg', 'block'] });
  await plain.waitFor((m) => m.method === 'Height' && plain.of('Height').length === 2, "a's two Height");

  for (const hash of bBlocks) {
    const { blob } = await rpcCall(b.url, 'NODE.GetBlock', { hash });
    await rpcCall(a.url, 'NODE.SubmitBlock', { block_blob: blob });
  }
  const reorg = await subscriber.waitFor((m) => m.method === 'reorg', 'reorg');
  t.same(reorg.params, {
    old_top: { hash: aBlocks[1], height: 2, topoheight: 2 },
    new_top: { hash: bBlocks[2], height: 3, topoheight: 3 },
  });
  t.equal(subscriber.of('reorg').length, 1, 'one reorganisation');
  const headers = subscriber.of('block').map((m) => m.params.block_header);
  t.same(
    headers.map((h) => [h.hash, h.sideblock, h.topoheight]),
    [
      [bBlocks[0], true, -1],
      [bBlocks[1], true, -1],
      [bBlocks[2], false, 3],
    ],
    "b's blocks: two side blocks until the third makes their branch the heavier",
  );

  await plain.request('NODE.Ping');
  t.same(
    plain.pushed.map((m) => m.method),
    ['Block', 'Height', 'Block', 'Height', 'Block', 'Block', 'Block', 'Height'],
    'the client that never subscribed hears what it always did',
  );
});
