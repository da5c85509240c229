/**
 * How `umbra status` works out sync progress: the target from GetInfo and the peers, the daemon's own rate and ETA
 * while it syncs, else the rate between two samples; a daemon without P2P. The daemon's answers are scripted here,
 * to reach the states a live test cannot hold still (a node half way through a sync).
 */
import t from 'tap';
import { readDaemonStatus } from '../../../cli/status/daemon-status.js';
import { DaemonClient, DaemonRpcError } from '../../../wallet/daemon-client.js';

const INFO = {
  height: 1000,
  topoheight: 1000,
  stableheight: 992,
  target_height: 1000,
  difficulty: 1800,
  averageblocktime50: 18.2,
  hashrate_1hr: 1843.21,
  tx_pool_size: 3,
  network: 'testnet',
  version: '0.1.0',
  uptime: 3725,
};

/** A client whose calls answer from `answers` (a function of the method), as the daemon would. */
function scriptedClient(answers: Record<string, () => unknown>): DaemonClient {
  const client = new DaemonClient('127.0.0.1:40402');
  client.call = async <T>(method: string): Promise<T> => answers[method]!() as T;
  return client;
}

const peer = (height: number) => ({
  address: '203.0.113.7:40401',
  direction: 'outgoing' as const,
  height,
  latency_ms: 40,
  connected_seconds: 60,
});

t.test("synced: ETA 0, no rate; the hash rate is GetInfo's over the last hour", async (t) => {
  const client = scriptedClient({
    'NODE.GetInfo': () => INFO,
    'NODE.GetPeers': () => ({ peers: [peer(1000)], sync: null }),
  });
  const status = await readDaemonStatus(client, undefined, () => 5);
  t.same(status.sync, { target_height: 1000, percent: 100, synced: true, blocks_per_second: null, eta_seconds: 0 });
  t.equal(status.network_hashrate, 1843.21);
  t.equal(status.uptime_seconds, 3725);
  t.equal(status.pool_transactions, 3);
  t.equal(status.daemon, 'http://127.0.0.1:40402/json_rpc');
  t.equal(status.sampled_at, 5);
});

t.test('on the simulator, which mines on demand, no hash rate', async (t) => {
  const client = scriptedClient({
    'NODE.GetInfo': () => ({ ...INFO, network: 'simulator' }),
    'NODE.GetPeers': () => ({ peers: [], sync: null }),
  });
  t.equal((await readDaemonStatus(client)).network_hashrate, null);
});

t.test('syncing: the daemon’s own rate and ETA; the target is the best of GetInfo and the peers', async (t) => {
  const client = scriptedClient({
    'NODE.GetInfo': () => ({ ...INFO, height: 1234, target_height: 4000 }),
    'NODE.GetPeers': () => ({
      peers: [peer(5000), peer(3000)],
      sync: { height: 1234, target_height: 5000, percent: 24.7, blocks_per_second: 85.1, eta_seconds: 44 },
    }),
  });
  const status = await readDaemonStatus(client);
  t.same(status.sync, { target_height: 5000, percent: 24.6, synced: false, blocks_per_second: 85.1, eta_seconds: 44 });
});

t.test('behind without a sync report: the rate between two samples gives the ETA', async (t) => {
  let height = 1000;
  let now = 10_000;
  const client = scriptedClient({
    'NODE.GetInfo': () => ({ ...INFO, height, target_height: 3000 }),
    'NODE.GetPeers': () => ({ peers: [], sync: null }),
  });
  const first = await readDaemonStatus(client, undefined, () => now);
  t.same(first.sync, { target_height: 3000, percent: 33.3, synced: false, blocks_per_second: null, eta_seconds: null });
  height = 1100;
  now += 2000;
  const second = await readDaemonStatus(client, first, () => now);
  t.same(second.sync, { target_height: 3000, percent: 36.6, synced: false, blocks_per_second: 50, eta_seconds: 38 });
});

t.test('a daemon without the p2p plugin: no peers, not an error; other failures are not hidden', async (t) => {
  const withoutP2p = scriptedClient({
    'NODE.GetInfo': () => INFO,
    'NODE.GetPeers': () => {
      throw new DaemonRpcError(-32601, 'method not found: NODE.GetPeers');
    },
  });
  t.equal((await readDaemonStatus(withoutP2p)).peers, null);
  const failing = scriptedClient({
    'NODE.GetInfo': () => INFO,
    'NODE.GetPeers': () => {
      throw new DaemonRpcError(-32603, 'internal error');
    },
  });
  await t.rejects(readDaemonStatus(failing), new DaemonRpcError(-32603, 'internal error'));
});
