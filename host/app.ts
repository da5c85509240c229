/**
 * The composition root: one awilix container per process (typed by host/services/services.ts), filled with the base
 * services (config, logger, network, crypto core, store, RPC endpoints) and then by the configured plugins, which
 * register in dependency order. `start` starts the plugins in that order, `stop` stops them in reverse and closes the
 * store.
 */
import { createContainer, InjectionMode } from 'awilix';
import { describeCore, loadCore } from '../core-native/ts/index.js';
import type { UmbraConfig } from './config/schema.js';
import { createLogger, type Logger } from './logger.js';
import type { Plugin, PluginLifecycle } from './plugin.js';
import { importPlugin, TRANSPORT_PLUGINS } from './plugins/catalog.js';
import { orderPlugins } from './plugins/order.js';
import { PluginErrorCode, PluginLoadError } from './plugins/plugin-error.js';
import { NETWORKS } from '../protocol/network.js';
import { RpcEndpoint, RpcEndpoints } from './rpc/endpoint.js';
import { DAEMON_RPC_SERVER, type RpcServerKind } from './rpc/servers.js';
import { NodeClock } from './services/clock.js';
import { provideServices, type ServiceContainer, type Services } from './services/services.js';
import { openStore } from './storage/open-store.js';

export interface App {
  readonly container: ServiceContainer;
  readonly config: UmbraConfig;
  readonly logger: Logger;
  /** Plugins in start order. */
  readonly plugins: readonly Plugin[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface ComposeOptions {
  /** Replaces the default stderr logger (tests capture lines with it). */
  logger?: Logger;
  /** The process's RPC server (default: the daemon's). */
  rpcServer?: RpcServerKind;
  /** Values put into the container before plugins register (e.g. the open wallet the `wallet` plugin serves). */
  services?: Readonly<Partial<Services>>;
}

/** The plugin specs a config asks for: its plugins, then one plugin per transport. */
export function configuredPlugins(config: UmbraConfig): string[] {
  return [...config.plugins, ...config.transports.map((t) => TRANSPORT_PLUGINS[t])];
}

/** A plugin must register every service it declares in `provides`: others rely on the declaration. */
function assertProvided(container: ServiceContainer, plugin: Plugin): void {
  for (const name of plugin.provides ?? []) {
    if (!container.hasRegistration(name)) {
      throw new PluginLoadError(
        PluginErrorCode.MissingService,
        `plugin '${plugin.name}' declares that it provides the '${name}' service but did not register it`,
      );
    }
  }
}

export async function composeApp(config: UmbraConfig, options: ComposeOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger(config.logLevel);
  // Resolve the plugin set first: a bad plugin list should fail before anything is opened.
  const plugins = orderPlugins(await Promise.all(configuredPlugins(config).map(importPlugin)));
  const core = await loadCore({ impl: config.crypto });
  logger.info(`crypto implementation: ${describeCore(core)}; requested ${config.crypto}`);
  const store = await openStore(config);
  logger.info(
    config.store === 'memory' ? 'store: in memory (nothing is persisted)' : `store: RocksDB in ${config.dataDir}`,
  );

  const network = NETWORKS[config.network];
  const rpcEndpoints = new RpcEndpoints();
  rpcEndpoints.add(
    new RpcEndpoint({
      ...(options.rpcServer ?? DAEMON_RPC_SERVER),
      bind: config.rpcBind,
      login: config.rpcLogin,
      maxBodyBytes: config.rpcMaxBodyBytes,
    }),
  );
  const container: ServiceContainer = createContainer<Services>({ injectionMode: InjectionMode.PROXY, strict: true });
  provideServices(container, {
    config,
    logger,
    network,
    core,
    store,
    rpcEndpoints,
    clock: new NodeClock(),
    ...options.services,
  });
  const lifecycles = new Map<Plugin, PluginLifecycle>();
  try {
    for (const plugin of plugins) {
      const lifecycle = await plugin.register(container, config);
      if (lifecycle) lifecycles.set(plugin, lifecycle);
      assertProvided(container, plugin);
    }
  } catch (error) {
    await store.close();
    throw error;
  }

  const started: Plugin[] = [];
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      for (const plugin of started.reverse()) {
        try {
          await lifecycles.get(plugin)?.stop?.();
        } catch (error) {
          logger.error(`plugin ${plugin.name} failed to stop cleanly: ${(error as Error).message}`);
        }
      }
      await store.close();
    })();
    return stopping;
  };
  return {
    container,
    config,
    logger,
    plugins,
    async start() {
      try {
        for (const plugin of plugins) {
          await lifecycles.get(plugin)?.start?.();
          started.push(plugin);
        }
      } catch (error) {
        // What started is stopped again (listeners, timers, the P2P node), so a failed start leaves nothing running.
        await stop();
        throw error;
      }
    },
    stop,
  };
}
