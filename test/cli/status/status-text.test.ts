/**
 * The text view of `umbra status`: the sync line while syncing, peers without a measured latency, the hash rate with
 * its window (none on the simulator).
 */
import t from 'tap';
import type { DaemonStatus } from '../../../cli/status/daemon-status.js';
import { statusText } from '../../../cli/status/status-text.js';

const SYNCING: DaemonStatus = {
  daemon: 'http://127.0.0.1:40402/json_rpc',
  network: 'testnet',
  version: '0.1.0',
  uptime_seconds: 3725,
  height: 1234,
  topoheight: 1234,
  stableheight: 1226,
  sync: { target_height: 5000, percent: 24.6, synced: false, blocks_per_second: 85.1, eta_seconds: 2700 },
  fast_sync: null,
  pool_transactions: 1,
  difficulty: 2_000_000,
  network_hashrate: 111_111.1,
  average_block_time: 17.94,
  peers: [
    { address: '203.0.113.7:40401', direction: 'outgoing', height: 5000, latency_ms: 42, connected_seconds: 75 },
    { address: '[2001:db8::1]:40401', direction: 'incoming', height: 900, latency_ms: null, connected_seconds: 3 },
  ],
  sampled_at: 0,
};

t.test('a syncing daemon with two peers', async (t) => {
  t.equal(
    statusText(SYNCING),
    [
      'daemon:     http://127.0.0.1:40402/json_rpc',
      'network:    testnet',
      'version:    0.1.0',
      'uptime:     1 h 2 min',
      'height:     1234 (topoheight 1234, stable 1226)',
      'sync:       syncing, 1234 / 5000 blocks (24.6 %), 85.1 blocks/s, ETA 45 min 0 s',
      'pool:       1 transaction',
      'difficulty: 2000000',
      "hash rate:  111.1 kH/s (accepted miniblocks' difficulty over the hour up to the top block)",
      'block time: 17.94 s (average of the last 50 blocks)',
      'peers:      2 (1 incoming, 1 outgoing)',
      '',
      'ADDRESS              DIRECTION  HEIGHT  LATENCY  CONNECTED',
      '203.0.113.7:40401    outgoing   5000    42 ms    1 min 15 s',
      '[2001:db8::1]:40401  incoming   900     -        3 s',
      '',
    ].join('\n'),
  );
});

t.test('no rate yet, an old daemon without uptime, no P2P', async (t) => {
  const text = statusText({
    ...SYNCING,
    uptime_seconds: null,
    sync: { ...SYNCING.sync, blocks_per_second: null, eta_seconds: null },
    peers: null,
  });
  t.match(text, /^uptime: +unknown$/m);
  t.match(text, /^sync: +syncing, 1234 \/ 5000 blocks \(24\.6 %\), rate not known yet, ETA unknown$/m);
  t.match(text, /^peers: +none \(the daemon runs without P2P\)$/m);
});

t.test('a fast sync in its state phase', async (t) => {
  const text = statusText({
    ...SYNCING,
    height: 0,
    fast_sync: { phase: 'state', snapshot_height: 4992, done: 3, total: 10, leaves: 120_000 },
  });
  t.match(text, /^fast sync: +state phase, 3 \/ 10 states fetched, 120000 state leaves \(snapshot at height 4992\)$/m);
  const headers = statusText({
    ...SYNCING,
    height: 0,
    fast_sync: { phase: 'headers', snapshot_height: 4992, done: 2048, total: 4992, leaves: 0 },
  });
  t.match(headers, /^fast sync: +headers phase, 2048 \/ 4992 headers checked \(snapshot at height 4992\)$/m);
});

t.test('the hash rate: not known before two blocks in the hour, and no line on the simulator', async (t) => {
  t.match(
    statusText({ ...SYNCING, network_hashrate: 0 }),
    /^hash rate: +not known yet: it needs two blocks within the hour up to the top block$/m,
  );
  t.notMatch(statusText({ ...SYNCING, network: 'simulator', network_hashrate: null }), /hash rate/);
});
