/**
 * `GET /health`: 200 `{"status":"ok","height":…,"synced":true}` when the process has caught up, 503 with
 * `"synced":false` while it has not. A daemon has caught up when no peer reports a higher chain (a daemon without
 * peers has); a wallet, when its history sync reached its daemon's current top. Nothing may keep an idle wallet's
 * history in step (the simulator's wallets sync only when asked): one found behind catches up before the answer,
 * for as long as a probe can wait.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpRoute, HttpRouteResponse } from '../../host/rpc/endpoint.js';
import type { ChainService } from '../../host/services/chain.js';
import type { P2pService } from '../../host/services/p2p.js';
import type { WalletService } from '../../wallet/wallet-service.js';
import type { WalletSyncState } from './wallet-metrics.js';

export interface Health {
  /** `ok` when synced; otherwise what keeps it from being synced. */
  status: 'ok' | 'syncing' | 'daemon-unreachable';
  height: number;
  synced: boolean;
  /** The height being synced towards, while syncing. */
  target?: number;
}

export type HealthCheck = () => Promise<Health>;

export function daemonHealth(chain: ChainService, p2p: P2pService | undefined): HealthCheck {
  return async () => {
    const height = Number(chain.top.height);
    const target = Math.max(height, ...(p2p?.peers() ?? []).map((peer) => peer.height));
    return target > height
      ? { status: 'syncing', height, synced: false, target }
      : { status: 'ok', height, synced: true };
  };
}

/** How long a wallet's health check waits for a catch-up sync before it answers that the wallet is syncing. */
export const WALLET_CATCH_UP_MS = 2_000;

export function walletHealth(
  wallet: WalletService,
  sync: WalletSyncState,
  catchUpMs = WALLET_CATCH_UP_MS,
): HealthCheck {
  const caughtUp = (target: number): boolean => sync.topoheight !== undefined && sync.topoheight >= target;
  return async () => {
    let target: number;
    try {
      target = (await wallet.daemon.getInfo()).topoheight;
    } catch {
      return { status: 'daemon-unreachable', height: sync.topoheight ?? 0, synced: false };
    }
    // A sync that fails (the daemon just went) leaves the answer to what the wallet had reached.
    if (!caughtUp(target)) await Promise.race([wallet.sync().catch(() => undefined), sleep(catchUpMs)]);
    const height = sync.topoheight ?? 0;
    return caughtUp(target)
      ? { status: 'ok', height, synced: true }
      : { status: 'syncing', height, synced: false, target };
  };
}

/** Serves a health check on GET (and HEAD): 200 when synced, 503 otherwise. */
export function healthRoute(check: HealthCheck): HttpRoute {
  return async (request): Promise<HttpRouteResponse> => {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return { status: 405, body: 'use GET for /health\n', contentType: 'text/plain; charset=utf-8' };
    const health = await check();
    return { status: health.synced ? 200 : 503, body: JSON.stringify(health) };
  };
}
