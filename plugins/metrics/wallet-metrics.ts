/**
 * A wallet RPC server's metrics and sync state: the topoheight its history sync reached and how long each sync took.
 * `/health` reads the same state to tell whether the wallet has caught up with its daemon.
 */
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { WalletService } from '../../wallet/wallet-service.js';

export interface WalletSyncState {
  /** The topoheight the last completed sync reached (undefined before the first). */
  readonly topoheight: number | undefined;
  /** Stops listening to the wallet's syncs. */
  stop(): void;
}

export function registerWalletMetrics(registry: Registry, wallet: WalletService): WalletSyncState {
  const height = new Gauge({
    name: 'umbra_wallet_height',
    help: "The chain topoheight the wallet's history sync has reached",
    registers: [registry],
  });
  const syncSeconds = new Histogram({
    name: 'umbra_wallet_sync_seconds',
    help: "Time a history sync took to reach the daemon's top",
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  let topoheight: number | undefined;
  const stop = wallet.onSynced((sync) => {
    topoheight = sync.topoheight;
    height.set(sync.topoheight);
    syncSeconds.observe(sync.seconds);
  });
  return {
    get topoheight() {
      return topoheight;
    },
    stop,
  };
}
