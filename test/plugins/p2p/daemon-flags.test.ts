/** The P2P flags of the real CLI: two daemons, one dialling the other with --add-peer, blocks flowing between them. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { encodeAddress } from '../../../protocol/address.js';
import { premineKey } from '../../../protocol/premine.js';
import { postRpc } from '../../helpers/app.js';
import { startCli } from '../../helpers/cli.js';

const address = encodeAddress('simulator', premineKey(await loadCore(), 'simulator'));
const call = async (url: string, method: string, params?: unknown) =>
  (await postRpc(url, { jsonrpc: '2.0', id: 1, method, params })).json.result;

function daemon(t: Test, extra: string[]) {
  const cli = startCli([
    'daemon',
    '--network',
    'simulator',
    '--data-dir',
    mkdtempSync(join(tmpdir(), 'umbra-p2p-cli-')),
    '--rpc-bind',
    '127.0.0.1:0',
    ...extra,
  ]);
  t.teardown(() => cli.child.kill('SIGKILL'));
  return cli;
}

t.test('--p2p-bind, --add-peer and --max-peers', async (t) => {
  const first = daemon(t, ['--p2p-bind', '127.0.0.1:0']);
  const [, port] = await first.waitFor(/P2P listening on 127\.0\.0\.1:(\d+)/);
  const [, url] = await first.waitFor(/daemon RPC listening on (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/);
  const second = daemon(t, ['--add-peer', `127.0.0.1:${port}`, '--add-peer', '127.0.0.1:1', '--max-peers', '4']);
  const [, secondUrl] = await second.waitFor(/daemon RPC listening on (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/);
  await second.waitFor(/connected to peer 127\.0\.0\.1:\d+ \(outgoing\)/);
  t.notMatch(second.log(), /P2P listening/, 'the simulator does not listen without --p2p-bind');
  for (;;) {
    const job = await call(url!, 'NODE.GetBlockTemplate', { wallet_address: address });
    if ((await call(url!, 'NODE.SubmitBlock', { jobid: job.jobid, mbl_blob: job.blockhashing_blob })).block_found)
      break;
  }
  const top = (await call(url!, 'NODE.GetInfo')).top_block_hash;
  for (let i = 0; (await call(secondUrl!, 'NODE.GetInfo')).top_block_hash !== top; i++) {
    if (i > 500) throw new Error('the block did not arrive');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.match(await call(secondUrl!, 'NODE.GetInfo'), {
    height: 1,
    outgoing_connections_count: 1,
    incoming_connections_count: 0,
  });
  t.match(
    await call(url!, 'NODE.GetInfo'),
    { incoming_connections_count: 1, white_peerlist_size: 0 },
    'the second daemon does not listen, so it is no address to share',
  );
});
