/** The `rpc-http` plugin: serves every RPC endpoint of the process over HTTP (POST /json_rpc and extra routes). */
import { createServer, type Server } from 'node:http';
import { parseBindAddress } from '../../host/config/schema.js';
import { listenOn } from '../../host/listen.js';
import type { Plugin } from '../../host/plugin.js';
import type { HttpServers } from '../../host/services/http-servers.js';
import { provideServices } from '../../host/services/services.js';
import { createHttpHandler } from './http-handler.js';

class RunningHttpServers implements HttpServers {
  readonly servers = new Map<string, Server>();
  private readonly listeners: ((name: string, server: Server) => void)[] = [];

  get(endpointName: string): Server | undefined {
    return this.servers.get(endpointName);
  }

  onServer(listener: (endpointName: string, server: Server) => void): void {
    this.listeners.push(listener);
    for (const [name, server] of this.servers) listener(name, server);
  }

  add(name: string, server: Server): void {
    this.servers.set(name, server);
    for (const listener of this.listeners) listener(name, server);
  }
}

/** Closes a server and drops its open connections. */
function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const plugin: Plugin = {
  name: 'rpc-http',
  requires: [],
  provides: ['httpServers'],
  register(container) {
    const { rpcEndpoints, logger } = container.cradle;
    const servers = new RunningHttpServers();
    provideServices(container, { httpServers: servers });
    const log = logger.child('rpc-http');
    return {
      async start() {
        for (const endpoint of rpcEndpoints.list()) {
          const { host } = parseBindAddress(endpoint.options.bind);
          const server = createServer(createHttpHandler(endpoint, log));
          server.keepAliveTimeout = 30_000;
          const address = await listenOn(server, endpoint.options.bind, `the ${endpoint.name} RPC server`);
          log.info(
            `${endpoint.name} RPC listening on http://${host.includes(':') ? `[${host}]` : host}:${address.port}/json_rpc`,
          );
          servers.add(endpoint.name, server);
        }
      },
      async stop() {
        await Promise.all([...servers.servers.values()].map(close));
        servers.servers.clear();
      },
    };
  },
};

export default plugin;
