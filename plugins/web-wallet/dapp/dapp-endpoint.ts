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
  return new DappConnections(wallet, options);
}

class DappConnections implements DappEndpoint {
  readonly approvals: DappRequests;
  private readonly connections = new Set<Connection>();
  private readonly actions: DappActions;
  private readonly server: WebSocketServer;
  private readonly maxConnections: number;
  private readonly maxMessageBytes: number;
  private closed = false;

  constructor(
    wallet: WalletService,
    private readonly options: DappEndpointOptions,
  ) {
    this.maxConnections = options.maxConnections ?? 32;
    this.maxMessageBytes = options.maxMessageBytes ?? 64 * 1024;
    this.approvals = new DappRequests({
      permissions: options.permissions,
      timeoutMs: options.requestTimeoutMs ?? 120_000,
      maxPendingPerOrigin: options.maxPendingPerOrigin ?? 4,
      onRevoke: (origin) => {
        for (const connection of this.connections)
          if (connection.app?.origin === origin) connection.socket.close(CLOSE_REVOKED, 'permission revoked');
      },
    });
    this.actions = new DappActions(wallet, options.core);
    // Far above the limit a message is answered for, so that a message just too large gets an answer, not a hang-up.
    this.server = new WebSocketServer({ noServer: true, maxPayload: 16 * this.maxMessageBytes });
  }

  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.closed || this.connections.size >= this.maxConnections) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.server.handleUpgrade(request, socket, head, (ws) => {
      const origin = request.headers.origin;
      const connection: Connection = {
        socket: ws,
        // A page opened from a file or a sandbox sends "null": it names its origin as other clients do.
        ...(origin && origin !== 'null' ? { headerOrigin: origin } : {}),
      };
      this.connections.add(connection);
      ws.on('message', (data) => this.receive(connection, data));
      ws.on('close', () => {
        this.connections.delete(connection);
        this.approvals.dropOwner(connection);
      });
      // A broken frame (too large, bad masking) is ws's to close; the error must not escape the process.
      ws.on('error', () => ws.terminate());
    });
  }

  close(): void {
    this.closed = true;
    this.approvals.close();
    for (const { socket } of this.connections) socket.close(CLOSE_WALLET_CLOSING, 'the wallet is closing');
    this.server.close();
  }

  private receive(connection: Connection, data: RawData): void {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    const request = readRequest(bytes, this.maxMessageBytes);
    if ('error' in request) {
      send(connection, errorMessage(request.id, request.error));
      return;
    }
    const { id, method, params } = request;
    const handled =
      method === 'connect'
        ? Promise.resolve().then(() => this.connect(connection, id, params))
        : Object.hasOwn(ACTION_METHODS, method)
          ? this.act(connection, id, method, params)
          : Promise.reject(new DappError(DappErrorCode.MethodNotFound, `no method ${JSON.stringify(method)}`));
    handled.catch((error: unknown) => send(connection, errorMessage(id, asDappError(error))));
  }

  private connect(connection: Connection, id: JsonRpcId, params: unknown): void {
    const named = paramsOf(params);
    const name = requiredText(named, 'name', MAX_NAME_CHARS);
    const origin = originOf(connection, named);
    const result = { connected: true, origin, wallet: this.options.walletName };
    const known = this.approvals.permission(origin);
    if (known) {
      connection.app = { origin, name: known.name };
      answerer(connection, id)({ result });
      return;
    }
    const app = { origin, name };
    this.approvals.askToConnect(app, result, connection, (outcome) => {
      if ('result' in outcome) connection.app = app;
      answerer(connection, id)(outcome);
    });
  }

  private async act(connection: Connection, id: JsonRpcId, method: string, params: unknown): Promise<void> {
    const app = connection.app;
    if (!app || !this.approvals.permission(app.origin))
      throw new DappError(
        DappErrorCode.NotPermitted,
        app ? `${app.origin} has no permission: connect again` : 'not connected: send connect first',
      );
    const planned = await this.actions.plan(method, params);
    // The plan read the chain: the user may have revoked the origin, or closed the connection, meanwhile.
    if (!this.approvals.permission(app.origin))
      throw new DappError(DappErrorCode.NotPermitted, `${app.origin} was revoked`);
    if (connection.socket.readyState !== WebSocket.OPEN) return;
    this.approvals.ask(app, planned, connection, answerer(connection, id));
  }
}

function send(connection: Connection, message: object): void {
  if (connection.socket.readyState === WebSocket.OPEN) connection.socket.send(JSON.stringify(message));
}

/** Answers request `id` on `connection` with a result or an error. */
const answerer =
  (connection: Connection, id: JsonRpcId): Answer =>
  (outcome) =>
    send(
      connection,
      'error' in outcome ? errorMessage(id, outcome.error) : { jsonrpc: '2.0', id, result: outcome.result },
    );

/** The app's origin: the browser's header, or, from a client without one, the origin its connect names. */
function originOf(connection: Connection, params: Record<string, unknown>): string {
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
}

/** A message the endpoint does not read, and the id to answer it with (null when it has none usable). */
interface Unread {
  id: JsonRpcId;
  error: DappError;
}

/** The request's fields, or why the message is not a JSON-RPC 2.0 request the endpoint reads. */
function readRequest(bytes: Buffer, maxBytes: number): { id: JsonRpcId; method: string; params: unknown } | Unread {
  const unread = (code: DappErrorCode, message: string, id: JsonRpcId = null): Unread => ({
    id,
    error: new DappError(code, message),
  });
  if (bytes.length > maxBytes)
    return unread(
      DappErrorCode.InvalidRequest,
      `a message of ${bytes.length} bytes is larger than the ${maxBytes} bytes allowed`,
    );
  let message: unknown;
  try {
    message = JSON.parse(bytes.toString('utf8'));
  } catch {
    return unread(DappErrorCode.ParseError, 'the message is not JSON');
  }
  if (Array.isArray(message))
    return unread(DappErrorCode.InvalidRequest, 'batches are not read: send one request per message');
  const fields = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
  const id = fields['id'];
  if (typeof id !== 'string' && typeof id !== 'number')
    return unread(DappErrorCode.InvalidRequest, "'id' must be a string or a number: every request is answered");
  if (fields['jsonrpc'] !== '2.0') return unread(DappErrorCode.InvalidRequest, '\'jsonrpc\' must be "2.0"', id);
  if (typeof fields['method'] !== 'string')
    return unread(DappErrorCode.InvalidRequest, "'method' must be a string", id);
  return { id, method: fields['method'], params: fields['params'] };
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
