/** The `rpc-http` plugin: serves every RPC endpoint of the process over HTTP (POST /json_rpc and extra routes). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asValue, type AwilixContainer } from 'awilix';
import { parseBindAddress } from '../../host/config/schema.js';
import type { Plugin } from '../../host/plugin.js';
import type { BaseServices } from '../../host/services/base.js';
import type { HttpServers } from '../../host/services/http-servers.js';
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

const plugin: Plugin = {
  name: 'rpc-http',
  requires: [],
  register(container) {
    container.register({ httpServers: asValue(new RunningHttpServers()) });
  },
  async start(container: AwilixContainer) {
    const { rpcEndpoints, logger } = container.cradle as BaseServices;
    const servers = container.resolve<RunningHttpServers>('httpServers');
    const log = logger.child('rpc-http');
    for (const endpoint of rpcEndpoints.list()) {
      const { host, port } = parseBindAddress(endpoint.options.bind);
      const server = createServer(createHttpHandler(endpoint, log));
      server.keepAliveTimeout = 30_000;
      try {
        const address = await listen(server, host, port);
        log.info(`${endpoint.name} RPC listening on http://${host.includes(':') ? `[${host}]` : host}:${address.port}/json_rpc`);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const reason = code === 'EADDRINUSE' ? 'address already in use' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
        throw new Error(`cannot listen on ${endpoint.options.bind} for the ${endpoint.name} RPC server: ${reason}`);
      }
      servers.add(endpoint.name, server);
    }
  },
  async stop(container: AwilixContainer) {
    const servers = container.resolve<RunningHttpServers>('httpServers');
    await Promise.all(
      [...servers.servers.values()].map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
    servers.servers.clear();
  },
};

export default plugin;
