/** The `rpc-http` plugin: serves every RPC endpoint of the process over HTTP (POST /json_rpc and extra routes). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseBindAddress } from '../../host/config/schema.js';
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

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
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
          const { host, port } = parseBindAddress(endpoint.options.bind);
          const server = createServer(createHttpHandler(endpoint, log));
          server.keepAliveTimeout = 30_000;
          try {
            const address = await listen(server, host, port);
            log.info(
              `${endpoint.name} RPC listening on http://${host.includes(':') ? `[${host}]` : host}:${address.port}/json_rpc`,
            );
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            const reason =
              code === 'EADDRINUSE'
                ? 'address already in use'
                : code === 'EACCES'
                  ? 'permission denied'
                  : (error as Error).message;
            throw new Error(`cannot listen on ${endpoint.options.bind} for the ${endpoint.name} RPC server: ${reason}`);
          }
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
