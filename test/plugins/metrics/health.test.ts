/**
 * `/health`'s verdicts, through test doubles of the services it reads: a daemon behind a peer is syncing (503) until
 * its chain reaches the peer's height (200), a daemon without peers is synced; a wallet is synced when its sync
 * reached its daemon's top, an idle one catching up before it answers.
 */
import t from 'tap';
import type { HttpRouteRequest } from '../../../host/rpc/endpoint.js';
import type { ChainService } from '../../../host/services/chain.js';
import type { P2pService } from '../../../host/services/p2p.js';
import type { WalletService } from '../../../wallet/wallet-service.js';
import { daemonHealth, healthRoute, walletHealth } from '../../../plugins/metrics/health.js';

const get: HttpRouteRequest = {
  method: 'GET',
  path: '/health',
  query: new URLSearchParams(),
  headers: {},
  body: Buffer.alloc(0),
};

/** A chain whose top height the test sets, and peers whose reported heights it sets. */
function doubles() {
  const state = { height: 10n, peerHeights: [] as number[] };
  const chain = {
    get top() {
      return { height: state.height };
    },
  } as unknown as ChainService;
  const p2p: P2pService = {
    counts: () => ({ incoming: 0, outgoing: state.peerHeights.length, white: 0, grey: 0 }),
    peers: () => state.peerHeights.map((height) => ({ height })),
  };
  return { state, chain, p2p };
}

t.test('a daemon is syncing while a peer reports a higher chain, and synced once it reaches it', async (t) => {
  const { state, chain, p2p } = doubles();
  const route = healthRoute(daemonHealth(chain, p2p));
  t.same(await route(get), { status: 200, body: '{"status":"ok","height":10,"synced":true}' }, 'no peers: synced');
  state.peerHeights = [8, 25];
  t.same(await route(get), { status: 503, body: '{"status":"syncing","height":10,"synced":false,"target":25}' });
  state.height = 25n;
  t.same(await route(get), { status: 200, body: '{"status":"ok","height":25,"synced":true}' }, 'caught up');
  state.peerHeights = [20];
  t.equal((await route(get)).status, 200, 'peers behind do not make it unhealthy');
  t.equal((await healthRoute(daemonHealth(chain, undefined))(get)).status, 200, 'without the p2p plugin: synced');
  t.equal((await route({ ...get, method: 'DELETE' })).status, 405);
});

t.test("a wallet is synced when its sync reaches its daemon's top; one found behind catches up first", async (t) => {
  const daemon = { top: 5, up: true };
  const sync = { topoheight: undefined as number | undefined, stop() {} };
  /** How long the wallet's next sync takes, ms; it reaches the daemon's top. */
  let syncMs = 0;
  let syncs = 0;
  const wallet = {
    daemon: {
      getInfo: async () => {
        if (!daemon.up) throw new Error('connection refused');
        return { topoheight: daemon.top };
      },
    },
    sync: async () => {
      syncs++;
      await new Promise((resolve) => setTimeout(resolve, syncMs));
      sync.topoheight = daemon.top;
    },
  } as unknown as WalletService;
  const route = healthRoute(walletHealth(wallet, sync, 50));
  t.same(
    await route(get),
    { status: 200, body: '{"status":"ok","height":5,"synced":true}' },
    'an idle wallet that never synced: caught up, healthy',
  );
  t.equal(syncs, 1);
  t.same(await route(get), { status: 200, body: '{"status":"ok","height":5,"synced":true}' });
  t.equal(syncs, 1, 'in step: no sync needed');
  daemon.top = 6;
  t.equal((await route(get)).status, 200, 'a new block: caught up before the answer');
  daemon.top = 900;
  syncMs = 500;
  t.same(
    await route(get),
    { status: 503, body: '{"status":"syncing","height":6,"synced":false,"target":900}' },
    'far behind: syncing while the catch-up runs on',
  );
  daemon.up = false;
  await new Promise((resolve) => setTimeout(resolve, 600));
  t.same(await route(get), { status: 503, body: '{"status":"daemon-unreachable","height":900,"synced":false}' });
});
