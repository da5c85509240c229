/**
 * The connection endpoint web apps open (docs/dapps.md): WebSocket upgrades on the web wallet's `/dapp`, from any
 * origin, speaking JSON-RPC 2.0. An app first asks to connect (the user lets its origin in, once: permissions are
 * kept in the wallet file); then each getAddress, signMessage, transfer or callContract waits for the user's
 * approval in DappApprovals. Bounded: so many connections, so many waiting requests per origin, so large a message.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Core } from '../../../core-native/ts/core.js';
import type { WalletService } from '../../../wallet/wallet-service.js';
import type { DappApprovals } from './approvals.js';
import { ACTION_METHODS, asDappError, DappActions } from './dapp-actions.js';
import { DappError, DappErrorCode } from './dapp-error.js';
import { type Answer, type DappApp, DappRequests } from './dapp-requests.js';
import type { DappPermissionStore } from './permission-store.js';
import { optionalText, paramsOf, requiredText } from './request-params.js';

export interface DappEndpointOptions {
  /** The crypto core the wallet was opened with (signatures). */
  core: Core;
  /** The wallet's name as connected apps are told it. */
  walletName: string;
  /** Where the origins the user let in are kept (permission-store.ts). */
  permissions: DappPermissionStore;
  /** How long a request waits for the user before it is answered as timed out (default 2 minutes). */
  requestTimeoutMs?: number;
  /** Open connections at most (default 32); more upgrades are answered 503. */
  maxConnections?: number;
  /** Requests waiting for the user per origin at most (default 4). */
  maxPendingPerOrigin?: number;
  /** The largest message read (default 64 KiB); a larger one is answered with an error. */
  maxMessageBytes?: number;
}

export interface DappEndpoint {
  approvals: DappApprovals;
  /** Hands over an HTTP upgrade request on `/dapp`. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Answers what waits that the wallet is closing and closes every connection. */
  close(): void;
}

const MAX_NAME_CHARS = 64;
const MAX_ORIGIN_CHARS = 256;
/** scheme://host[:port], as a browser's Origin header. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+$/i;
/** Close codes (the application's range): the user revoked the origin, the wallet is closing. */
const CLOSE_REVOKED = 4100;
const CLOSE_WALLET_CLOSING = 4900;

/** One open connection: the Origin header its browser sent, and the app once it has connected. */
interface Connection {
  socket: WebSocket;
  headerOrigin?: string;
  app?: DappApp;
}

type JsonRpcId = string | number | null;

export function createDappEndpoint(wallet: WalletService, options: DappEndpointOptions): DappEndpoint {
  const maxConnections = options.maxConnections ?? 32;
  const maxMessageBytes = options.maxMessageBytes ?? 64 * 1024;
  const connections = new Set<Connection>();
  const requests = new DappRequests({
    permissions: options.permissions,
    timeoutMs: options.requestTimeoutMs ?? 120_000,
    maxPendingPerOrigin: options.maxPendingPerOrigin ?? 4,
    onRevoke: (origin) => {
      for (const connection of connections)
        if (connection.app?.origin === origin) connection.socket.close(CLOSE_REVOKED, 'permission revoked');
    },
  });
  const actions = new DappActions(wallet, options.core);
  // Far above the limit a message is answered for, so that a message just too large gets an answer, not a hang-up.
  const server = new WebSocketServer({ noServer: true, maxPayload: 16 * maxMessageBytes });
  let closed = false;

  const send = (connection: Connection, message: object): void => {
    if (connection.socket.readyState === WebSocket.OPEN) connection.socket.send(JSON.stringify(message));
  };
  const answerer =
    (connection: Connection, id: JsonRpcId): Answer =>
    (outcome) =>
      'error' in outcome
        ? send(connection, errorMessage(id, outcome.error))
        : send(connection, { jsonrpc: '2.0', id, result: outcome.result });

  /** The app's origin: the browser's header, or, from a client without one, the origin its connect names. */
  const originOf = (connection: Connection, params: Record<string, unknown>): string => {
    const named = optionalText(params, 'origin', MAX_ORIGIN_CHARS);
    if (connection.headerOrigin) {
      if (named !== undefined && named !== connection.headerOrigin)
        throw new DappError(
          DappErrorCode.InvalidParams,
          `'origin' ${named} is not the page's origin ${connection.headerOrigin}`,
        );
      return connection.headerOrigin;
    }
    if (named === undefined)
      throw new DappError(
        DappErrorCode.InvalidParams,
        "a client that sends no Origin header must name its origin: 'origin' (scheme://host)",
      );
    if (!ORIGIN.test(named)) throw new DappError(DappErrorCode.InvalidParams, "'origin' must be scheme://host[:port]");
    return named;
  };

  const connect = (connection: Connection, id: JsonRpcId, params: unknown): void => {
    const named = paramsOf(params);
    const name = requiredText(named, 'name', MAX_NAME_CHARS);
    const origin = originOf(connection, named);
    const result = { connected: true, origin, wallet: options.walletName };
    const known = requests.permission(origin);
    if (known) {
      connection.app = { origin, name: known.name };
      answerer(connection, id)({ result });
      return;
    }
    const app = { origin, name };
    requests.askToConnect(app, result, connection, (outcome) => {
      if ('result' in outcome) connection.app = app;
      answerer(connection, id)(outcome);
    });
  };

  const act = async (connection: Connection, id: JsonRpcId, method: string, params: unknown): Promise<void> => {
    const app = connection.app;
    if (!app || !requests.permission(app.origin))
      throw new DappError(
        DappErrorCode.NotPermitted,
        app ? `${app.origin} has no permission: connect again` : 'not connected: send connect first',
      );
    const planned = await actions.plan(method, params);
    // The plan read the chain: the user may have revoked the origin, or closed the connection, meanwhile.
    if (!requests.permission(app.origin)) throw new DappError(DappErrorCode.NotPermitted, `${app.origin} was revoked`);
    if (connection.socket.readyState !== WebSocket.OPEN) return;
    requests.ask(app, planned, connection, answerer(connection, id));
  };

  const receive = (connection: Connection, data: RawData): void => {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (bytes.length > maxMessageBytes) {
      send(
        connection,
        errorMessage(
          null,
          new DappError(
            DappErrorCode.InvalidRequest,
            `a message of ${bytes.length} bytes is larger than the ${maxMessageBytes} bytes allowed`,
          ),
        ),
      );
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(bytes.toString('utf8'));
    } catch {
      send(connection, errorMessage(null, new DappError(DappErrorCode.ParseError, 'the message is not JSON')));
      return;
    }
    const request = readRequest(message);
    if (request instanceof DappError) {
      send(connection, errorMessage(requestId(message), request));
      return;
    }
    const { id, method, params } = request;
    const handled =
      method === 'connect'
        ? Promise.resolve().then(() => connect(connection, id, params))
        : method in ACTION_METHODS
          ? act(connection, id, method, params)
          : Promise.reject(new DappError(DappErrorCode.MethodNotFound, `no method ${JSON.stringify(method)}`));
    handled.catch((error: unknown) => {
      send(connection, errorMessage(id, asDappError(error)));
    });
  };

  return {
    approvals: requests,
    upgrade(request, socket, head) {
      if (closed || connections.size >= maxConnections) {
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      server.handleUpgrade(request, socket, head, (ws) => {
        const origin = request.headers.origin;
        const connection: Connection = {
          socket: ws,
          // A page opened from a file or a sandbox sends "null": it names its origin as other clients do.
          ...(origin && origin !== 'null' ? { headerOrigin: origin } : {}),
        };
        connections.add(connection);
        ws.on('message', (data) => receive(connection, data));
        ws.on('close', () => {
          connections.delete(connection);
          requests.dropOwner(connection);
        });
        // A broken frame (too large, bad masking) is ws's to close; the error must not escape the process.
        ws.on('error', () => ws.terminate());
      });
    },
    close() {
      closed = true;
      requests.close();
      for (const { socket } of connections) socket.close(CLOSE_WALLET_CLOSING, 'the wallet is closing');
      server.close();
    },
  };
}

/** The request's fields, or the error that says why it is not a JSON-RPC 2.0 request the endpoint reads. */
function readRequest(message: unknown): { id: JsonRpcId; method: string; params: unknown } | DappError {
  if (Array.isArray(message))
    return new DappError(DappErrorCode.InvalidRequest, 'batches are not read: send one request per message');
  const fields = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
  if (fields['jsonrpc'] !== '2.0') return new DappError(DappErrorCode.InvalidRequest, '\'jsonrpc\' must be "2.0"');
  const id = fields['id'];
  if (typeof id !== 'string' && typeof id !== 'number')
    return new DappError(DappErrorCode.InvalidRequest, "'id' must be a string or a number: every request is answered");
  if (typeof fields['method'] !== 'string')
    return new DappError(DappErrorCode.InvalidRequest, "'method' must be a string");
  return { id, method: fields['method'], params: fields['params'] };
}

/** The id of a message that is not a request, when it has a usable one (else null, as JSON-RPC says). */
function requestId(message: unknown): JsonRpcId {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function errorMessage(id: JsonRpcId, error: DappError): object {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: error.rpcCode,
      message: error.message,
      ...(error.walletCode ? { data: { wallet_code: error.walletCode } } : {}),
    },
  };
}
