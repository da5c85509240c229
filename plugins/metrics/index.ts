/**
 * The `metrics` plugin: `GET /metrics` in the Prometheus text format and `GET /health` on the process's RPC server
 * (behind `--rpc-login` like every route). Each app has its own prom-client registry (never the global one) for its
 * build, RPC calls by method and the daemon's or the wallet's own figures, whichever services the app has; the process
 * and Node.js defaults are collected once per process (the simulator runs 23 apps in one) and answered beside them.
 * docs/operations.md lists every metric.
 */
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { UMBRA_VERSION } from '../../host/version.js';
import type { Plugin } from '../../host/plugin.js';
import { optionalService } from '../../host/services/services.js';
import { daemonHealth, healthRoute, walletHealth, type HealthCheck } from './health.js';
import { registerNodeMetrics } from './node-metrics.js';
import { observeRpcCalls } from './rpc-metrics.js';
import { registerWalletMetrics } from './wallet-metrics.js';

const METRICS_PATH = '/metrics';

/** The process and Node.js default metrics: one collector (and one event-loop delay histogram) for the process. */
let processDefaults: Registry | undefined;
const processDefaultsRegistry = (): Registry => {
  if (!processDefaults) {
    processDefaults = new Registry();
    collectDefaultMetrics({ register: processDefaults });
  }
  return processDefaults;
};
const HEALTH_PATH = '/health';

const plugin: Plugin = {
  name: 'metrics',
  requires: [],
  // Whichever of these run, their figures are measured: they register first.
  optional: ['consensus', 'mempool', 'mining', 'p2p', 'wallet'],
  register(container) {
    const { rpcEndpoints, network, core } = container.cradle;
    const registry = new Registry();
    new Gauge({
      name: 'umbra_build_info',
      help: 'Always 1; the labels say which version runs, on which network, with which cryptography',
      labelNames: ['version', 'network', 'crypto'],
      registers: [registry],
    }).set({ version: UMBRA_VERSION, network: network.name, crypto: core.impl }, 1);
    const defaults = processDefaultsRegistry();
    const chain = optionalService(container, 'chain');
    const p2p = optionalService(container, 'p2p');
    const wallet = optionalService(container, 'wallet');
    const stopNode = registerNodeMetrics(registry, {
      chain,
      p2p,
      txPool: optionalService(container, 'txPool'),
      mining: optionalService(container, 'mining'),
      miners: optionalService(container, 'miners'),
    });
    const walletSync = wallet && registerWalletMetrics(registry, wallet);

    let health: HealthCheck = async () => ({ status: 'ok', height: 0, synced: true });
    if (chain) health = daemonHealth(chain, p2p);
    else if (wallet && walletSync) health = walletHealth(wallet, walletSync);

    for (const endpoint of rpcEndpoints.list()) {
      observeRpcCalls(registry, endpoint.registry);
      endpoint.addRoute(METRICS_PATH, async (request) =>
        request.method === 'GET' || request.method === 'HEAD'
          ? {
              status: 200,
              body: await Registry.merge([defaults, registry]).metrics(),
              contentType: registry.contentType,
            }
          : { status: 405, body: `use GET for ${METRICS_PATH}\n`, contentType: 'text/plain; charset=utf-8' },
      );
      endpoint.addRoute(HEALTH_PATH, healthRoute(health));
    }
    return {
      stop() {
        stopNode();
        walletSync?.stop();
        registry.clear();
      },
    };
  },
};

export default plugin;
