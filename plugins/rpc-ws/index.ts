/**
 * The `rpc-ws` plugin: JSON-RPC 2.0 over WebSocket on `/ws` of every HTTP RPC server, with server push of the
 * endpoint's notifications (the daemon pushes `Block` and `Height`).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AwilixContainer } from 'awilix';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Plugin } from '../../host/plugin.js';
import { basicAuthChecker } from '../../host/rpc/basic-auth.js';
import { JsonRpcDispatcher } from '../../host/rpc/dispatcher.js';
import type { BaseServices } from '../../host/services/base.js';
import type { HttpServers } from '../../host/services/http-servers.js';

const CONTEXT = { transport: 'ws' } as const;
const sockets = new WeakMap<AwilixContainer, Set<WebSocketServer>>();

function refuseUpgrade(socket: Duplex, status: string, body: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

const plugin: Plugin = {
  name: 'rpc-ws',
  requires: ['rpc-http'],
  register() {},
  start(container: AwilixContainer) {
    const { rpcEndpoints, logger } = container.cradle as BaseServices;
    const httpServers = container.resolve<HttpServers>('httpServers');
    const log = logger.child('rpc-ws');
    const servers = new Set<WebSocketServer>();
    sockets.set(container, servers);
    httpServers.onServer((name, httpServer) => {
      const endpoint = rpcEndpoints.get(name);
      const dispatcher = new JsonRpcDispatcher(endpoint.registry, log);
      const isAuthorised = basicAuthChecker(endpoint.options.login);
      const wss = new WebSocketServer({ noServer: true, maxPayload: endpoint.options.maxBodyBytes });
      servers.add(wss);
      httpServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        if ((request.url ?? '').split('?')[0] !== '/ws') return refuseUpgrade(socket, '404 Not Found', 'WebSocket is served on /ws\n');
        if (isAuthorised && !isAuthorised(request.headers.authorization)) return refuseUpgrade(socket, '401 Unauthorized', 'Authorization Required\n');
        wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
      });
      wss.on('connection', (ws: WebSocket) => {
        const unsubscribe = endpoint.subscribe((message) => ws.send(message));
        ws.on('message', (data, isBinary) => {
          const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
          const reply = (answer: string | null): void => {
            if (answer !== null && ws.readyState === ws.OPEN) ws.send(answer);
          };
          const answer = dispatcher.handleText(text, CONTEXT);
          if (typeof answer === 'string' || answer === null) reply(answer);
          else answer.then(reply, (error: Error) => log.error(`WebSocket request failed unexpectedly: ${error.message}`));
        });
        ws.on('close', unsubscribe);
        ws.on('error', (error) => log.debug(`WebSocket client error: ${error.message}`));
      });
      log.info(`${name} RPC WebSocket on /ws`);
    });
  },
  async stop(container: AwilixContainer) {
    for (const wss of sockets.get(container) ?? []) {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    }
    sockets.delete(container);
  },
};

export default plugin;
