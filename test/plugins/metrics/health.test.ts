/**
 * `/health`'s verdicts, through test doubles of the services it reads: a daemon behind a peer is syncing (503) until
 * its chain reaches the peer's height (200), a daemon without peers is synced; a wallet is synced when its last sync
 * reached its daemon's top.
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

t.test("a wallet is synced when its last sync reached its daemon's top", async (t) => {
  const daemon = { top: 5, up: true };
  const wallet = {
    daemon: {
      getInfo: async () => {
        if (!daemon.up) throw new Error('connection refused');
        return { topoheight: daemon.top };
      },
    },
  } as unknown as WalletService;
  const sync = { topoheight: undefined as number | undefined, stop() {} };
  const route = healthRoute(walletHealth(wallet, sync));
  t.same(await route(get), { status: 503, body: '{"status":"syncing","height":0,"synced":false,"target":5}' });
  sync.topoheight = 5;
  t.same(await route(get), { status: 200, body: '{"status":"ok","height":5,"synced":true}' });
  daemon.top = 6;
  t.equal((await route(get)).status, 503, 'a new block: behind again');
  daemon.up = false;
  t.same(await route(get), { status: 503, body: '{"status":"daemon-unreachable","height":5,"synced":false}' });
});
