/**
 * An RPC server as the rest of the node sees it: a name (`daemon`, `wallet`), where it listens, its method registry,
 * extra HTTP routes (the wallet's `POST /install_sc`; GET pages under a prefix such as `/explorer/`) and server push
 * to connected WebSocket clients: the plain notifications (`Block`, `Height`) to clients that never subscribed, and
 * the topics (`block`, `tx`, …, with data) to the clients that subscribed to them.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { stringifyExactJson } from '../../protocol/exact-json.js';
import type { PushClient } from './push-client.js';
import { MethodRegistry } from './registry.js';

export interface HttpRouteRequest {
  readonly method: string;
  /** The URL's path without its query, e.g. `/explorer/block/12` (prefix routes serve many paths). */
  readonly path: string;
  /** The URL's query, e.g. `force=true` of `/install_sc?force=true`. */
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface HttpRouteResponse {
  readonly status: number;
  readonly body: string;
  readonly contentType?: string;
  /** Extra headers, e.g. `Location` of a redirect. */
  readonly headers?: Readonly<Record<string, string>>;
}

export type HttpRoute = (request: HttpRouteRequest) => Promise<HttpRouteResponse>;

export interface RpcEndpointOptions {
  readonly name: string;
  /** `host:port`. */
  readonly bind: string;
  /** `user:pass` for HTTP Basic auth, or empty. */
  readonly login: string;
  readonly maxBodyBytes: number;
  /** Label used in the `GET /` greeting. */
  readonly label: string;
  /** Prefix that callers may put before any method name (see MethodRegistry). */
  readonly optionalMethodPrefix?: string;
}

export class RpcEndpoint {
  readonly registry: MethodRegistry;
  readonly routes = new Map<string, HttpRoute>();
  /** GET-only routes serving every path under a prefix ending in `/`, e.g. `/explorer/`. */
  readonly prefixRoutes = new Map<string, HttpRoute>();
  private readonly clients = new Set<PushClient>();
  private readonly pushTopics = new Set<string>();

  constructor(readonly options: RpcEndpointOptions) {
    this.registry = new MethodRegistry(options.optionalMethodPrefix);
  }

  get name(): string {
    return this.options.name;
  }

  /** Registers an extra HTTP route on this server, e.g. `/install_sc`. */
  addRoute(path: string, route: HttpRoute): void {
    if (path === '/json_rpc' || path === '/ws' || this.routes.has(path))
      throw new Error(`HTTP route ${path} is already taken on the ${this.name} server`);
    this.routes.set(path, route);
  }

  /** Registers a GET route for every path starting with `prefix` (which ends in `/`), e.g. `/explorer/`. */
  addPrefixRoute(prefix: string, route: HttpRoute): void {
    if (!prefix.startsWith('/') || !prefix.endsWith('/') || prefix === '/')
      throw new Error(`HTTP route prefix ${prefix} must start and end with / and name a folder`);
    const clash = [...this.prefixRoutes.keys()].find((taken) => taken.startsWith(prefix) || prefix.startsWith(taken));
    if (clash) throw new Error(`HTTP route prefix ${prefix} overlaps ${clash} on the ${this.name} server`);
    this.prefixRoutes.set(prefix, route);
  }

  /** The route serving `path`: an exact route, else the prefix route whose prefix it starts with. */
  routeFor(path: string): HttpRoute | undefined {
    const exact = this.routes.get(path);
    if (exact || this.prefixRoutes.size === 0) return exact;
    for (const [prefix, route] of this.prefixRoutes) if (path.startsWith(prefix)) return route;
    return undefined;
  }

  /** Declares a topic this server publishes (e.g. `block`), which push clients may subscribe to. */
  addTopic(topic: string): void {
    this.pushTopics.add(topic);
  }

  /** The topics this server publishes, sorted. */
  get topics(): string[] {
    return [...this.pushTopics].sort();
  }

  /** Pushes a plain JSON-RPC notification (e.g. `Block`) to every push client that never subscribed to topics. */
  notify(method: string, params?: unknown): void {
    this.send(
      method,
      () => params,
      (client) => client.topics === undefined,
    );
  }

  /**
   * Pushes a topic's notification (`{"method": topic, "params": …}`) to the clients subscribed to it; `params` is
   * only computed when there is one.
   */
  publish(topic: string, params: () => unknown): void {
    this.send(topic, params, (client) => client.topics?.has(topic) === true);
  }

  /** Connects a push client; returns the disconnect function. */
  connect(client: PushClient): () => void {
    this.clients.add(client);
    return () => this.clients.delete(client);
  }

  /** Serialises the message once (integers beyond 2^53 exactly), and only when some client is to hear it. */
  private send(method: string, params: () => unknown, hears: (client: PushClient) => boolean): void {
    let message: string | undefined;
    for (const client of this.clients) {
      if (!hears(client)) continue;
      if (message === undefined) {
        const value = params();
        message = stringifyExactJson(
          value === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params: value },
        );
      }
      client.send(message);
    }
  }
}

/** Every RPC server of this process, by name. */
export class RpcEndpoints {
  private readonly byName = new Map<string, RpcEndpoint>();

  add(endpoint: RpcEndpoint): RpcEndpoint {
    if (this.byName.has(endpoint.name)) throw new Error(`an RPC server named ${endpoint.name} already exists`);
    this.byName.set(endpoint.name, endpoint);
    return endpoint;
  }

  get(name: string): RpcEndpoint {
    const endpoint = this.byName.get(name);
    if (!endpoint) throw new Error(`no RPC server named ${name}`);
    return endpoint;
  }

  list(): RpcEndpoint[] {
    return [...this.byName.values()];
  }
}
