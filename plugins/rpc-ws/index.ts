/**
 * The `rpc-ws` plugin: JSON-RPC 2.0 over WebSocket on `/ws` of every HTTP RPC server, with server push of the
 * endpoint's notifications: the plain ones (the daemon's `Block` and `Height`) until a client subscribes to topics
 * with `Subscribe`, then those topics' notifications. A client that does not read what it is pushed is dropped.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from '../../host/logger.js';
import type { Plugin } from '../../host/plugin.js';
import { basicAuthChecker } from '../../host/rpc/basic-auth.js';
import { JsonRpcDispatcher } from '../../host/rpc/dispatcher.js';
import type { RpcEndpoint } from '../../host/rpc/endpoint.js';
import type { PushClient } from '../../host/rpc/push-client.js';
import type { RpcCallContext } from '../../host/rpc/registry.js';
import { boundedSender } from './bounded-send.js';
import { subscriptionMethods } from './subscription-methods.js';

function refuseUpgrade(socket: Duplex, status: string, body: string): void {
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Serves an endpoint's JSON-RPC on `/ws` of its HTTP server; returns the WebSocket server to close at stop. */
function serveWebSocket(endpoint: RpcEndpoint, httpServer: Server, log: Logger): WebSocketServer {
  const dispatcher = new JsonRpcDispatcher(endpoint.registry, log);
  const isAuthorised = basicAuthChecker(endpoint.options.login);
  const wss = new WebSocketServer({ noServer: true, maxPayload: endpoint.options.maxBodyBytes });
  httpServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if ((request.url ?? '').split('?')[0] !== '/ws')
      return refuseUpgrade(socket, '404 Not Found', 'WebSocket is served on /ws\n');
    if (isAuthorised && !isAuthorised(request.headers.authorization))
      return refuseUpgrade(socket, '401 Unauthorized', 'Authorization Required\n');
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  });
  wss.on('connection', (ws: WebSocket) => {
    const client: PushClient = { send: boundedSender(ws, log) };
    const context: RpcCallContext = { transport: 'ws', push: client };
    const disconnect = endpoint.connect(client);
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
      const reply = (answer: string | null): void => {
        if (answer !== null) client.send(answer);
      };
      const answer = dispatcher.handleText(text, context);
      if (typeof answer === 'string' || answer === null) reply(answer);
      else answer.then(reply, (error: Error) => log.error(`WebSocket request failed unexpectedly: ${error.message}`));
    });
    ws.on('close', disconnect);
    ws.on('error', (error) => log.debug(`WebSocket client error: ${error.message}`));
  });
  log.info(`${endpoint.name} RPC WebSocket on /ws`);
  return wss;
}

const plugin: Plugin = {
  name: 'rpc-ws',
  requires: ['rpc-http'],
  register(container) {
    const { rpcEndpoints, logger, httpServers } = container.cradle;
    const log = logger.child('rpc-ws');
    const servers = new Set<WebSocketServer>();
    for (const endpoint of rpcEndpoints.list())
      for (const method of subscriptionMethods(endpoint)) endpoint.registry.add(method);
    return {
      start() {
        httpServers.onServer((name, httpServer) =>
          servers.add(serveWebSocket(rpcEndpoints.get(name), httpServer, log)),
        );
      },
      async stop() {
        for (const wss of servers) {
          for (const client of wss.clients) client.terminate();
          await new Promise<void>((resolve) => wss.close(() => resolve()));
        }
        servers.clear();
      },
    };
  },
};

export default plugin;
