/**
 * The HTTP side of one RPC endpoint: `POST /json_rpc` (JSON-RPC 2.0), the endpoint's extra routes (exact paths, and
 * GET-only prefix routes such as `/explorer/`), a greeting on `GET /`, with the status codes users and tools expect
 * (405, 413, 415, 401, 404).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../host/logger.js';
import { basicAuthChecker } from '../../host/rpc/basic-auth.js';
import { JsonRpcDispatcher } from '../../host/rpc/dispatcher.js';
import type { RpcEndpoint } from '../../host/rpc/endpoint.js';
import { BodyTooLargeError, readBody } from '../../host/rpc/http-body.js';

const CONTEXT = { transport: 'http' } as const;
const TEXT = 'text/plain; charset=utf-8';

function send(
  response: ServerResponse,
  status: number,
  body: string,
  contentType = TEXT,
  extra?: Record<string, string>,
): void {
  response.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...extra });
  response.end(body);
}

/** `application/json`, optionally with parameters such as `; charset=utf-8`. */
function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  if (header === 'application/json') return true;
  return header.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

export function createHttpHandler(endpoint: RpcEndpoint, logger: Logger) {
  const dispatcher = new JsonRpcDispatcher(endpoint.registry, logger);
  const isAuthorised = basicAuthChecker(endpoint.options.login);
  const maxBytes = endpoint.options.maxBodyBytes;

  const failed = (request: IncomingMessage, response: ServerResponse, error: unknown): void => {
    logger.error(
      `HTTP ${request.method} ${request.url} failed unexpectedly: ${(error as Error)?.stack ?? String(error)}`,
    );
    if (!response.headersSent) send(response, 500, 'internal error\n');
    else response.destroy();
  };

  /** Reads the body, answering 413/400 itself when it cannot. */
  const withBody = (request: IncomingMessage, response: ServerResponse, use: (body: Buffer) => void): void =>
    readBody(request, maxBytes, (error, body) => {
      if (error instanceof BodyTooLargeError)
        return send(response, 413, `${error.message}\n`, TEXT, { Connection: 'close' });
      if (error || !body) return send(response, 400, 'could not read the request body\n');
      try {
        use(body);
      } catch (thrown) {
        failed(request, response, thrown);
      }
    });

  const answerJsonRpc = (response: ServerResponse, answer: string | null): void => {
    if (answer === null) {
      response.writeHead(204);
      response.end();
    } else {
      send(response, 200, answer, 'application/json');
    }
  };

  const serveJsonRpc = (request: IncomingMessage, response: ServerResponse): void => {
    if (request.method !== 'POST') return send(response, 405, 'use POST for /json_rpc\n', TEXT, { Allow: 'POST' });
    if (!isJsonContentType(request.headers['content-type']))
      return send(response, 415, 'Content-Type must be application/json\n');
    withBody(request, response, (body) => {
      const answer = dispatcher.handleText(body.toString('utf8'), CONTEXT);
      if (typeof answer === 'string' || answer === null) return answerJsonRpc(response, answer);
      answer.then(
        (text) => answerJsonRpc(response, text),
        (error: unknown) => failed(request, response, error),
      );
    });
  };

  return (request: IncomingMessage, response: ServerResponse): void => {
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    // JSON-RPC, the hot path, looks up no route.
    const route = path === '/json_rpc' ? undefined : endpoint.routeFor(path);
    const isPrefixRoute = route !== undefined && !endpoint.routes.has(path);
    const guarded = path === '/json_rpc' || path === '/ws' || route !== undefined;
    if (guarded && isAuthorised && !isAuthorised(request.headers.authorization)) {
      return send(response, 401, 'Authorization Required\n', TEXT, {
        'WWW-Authenticate': `Basic realm="${endpoint.options.label}"`,
      });
    }
    if (path === '/json_rpc') return serveJsonRpc(request, response);
    if (route) {
      const method = request.method ?? 'GET';
      if (isPrefixRoute && method !== 'GET' && method !== 'HEAD')
        return send(response, 405, `use GET for ${path}\n`, TEXT, { Allow: 'GET, HEAD' });
      return withBody(request, response, (body) => {
        const params = new URLSearchParams(query === -1 ? '' : url.slice(query + 1));
        route({ method, path, query: params, headers: request.headers, body }).then(
          (answer) =>
            send(response, answer.status, answer.body, answer.contentType ?? 'application/json', answer.headers),
          (error: unknown) => failed(request, response, error),
        );
      });
    }
    if (path === '/ws') return send(response, 400, 'WebSocket upgrade required on /ws\n');
    if (path === '/' && request.method === 'GET')
      return send(response, 200, `${endpoint.options.label}: JSON-RPC 2.0 on POST /json_rpc and WebSocket /ws\n`);
    send(response, 404, `no such path: ${path}\n`);
  };
}
