/**
 * The HTTP side of one RPC endpoint: `POST /json_rpc` (JSON-RPC 2.0), the endpoint's extra routes, a greeting on
 * `GET /`, with the status codes users and tools expect (405, 413, 415, 401, 404).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../host/logger.js';
import { basicAuthChecker } from '../../host/rpc/basic-auth.js';
import { JsonRpcDispatcher } from '../../host/rpc/dispatcher.js';
import type { RpcEndpoint } from '../../host/rpc/endpoint.js';
import { BodyTooLargeError, readBody } from '../../host/rpc/http-body.js';

const CONTEXT = { transport: 'http' } as const;

function send(response: ServerResponse, status: number, body: string, contentType = 'text/plain; charset=utf-8', extra: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...extra });
  response.end(body);
}

/** `application/json`, optionally with parameters such as `; charset=utf-8`. */
function isJsonContentType(header: string | undefined): boolean {
  return header !== undefined && header.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

export function createHttpHandler(endpoint: RpcEndpoint, logger: Logger) {
  const dispatcher = new JsonRpcDispatcher(endpoint.registry, logger);
  const isAuthorised = basicAuthChecker(endpoint.options.login);
  const maxBytes = endpoint.options.maxBodyBytes;

  const readOrRefuse = async (request: IncomingMessage, response: ServerResponse): Promise<Buffer | undefined> => {
    try {
      return await readBody(request, maxBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) send(response, 413, `${error.message}\n`, undefined, { Connection: 'close' });
      else send(response, 400, 'could not read the request body\n');
      return undefined;
    }
  };

  const serveJsonRpc = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.method !== 'POST') return send(response, 405, 'use POST for /json_rpc\n', undefined, { Allow: 'POST' });
    if (!isJsonContentType(request.headers['content-type'])) {
      return send(response, 415, 'Content-Type must be application/json\n');
    }
    const body = await readOrRefuse(request, response);
    if (!body) return;
    const answer = await dispatcher.handleText(body.toString('utf8'), CONTEXT);
    if (answer === null) {
      response.writeHead(204);
      response.end();
      return;
    }
    send(response, 200, answer, 'application/json');
  };

  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = (request.url ?? '/').split('?')[0]!;
    const route = endpoint.routes.get(path);
    const guarded = path === '/json_rpc' || path === '/ws' || route !== undefined;
    if (guarded && isAuthorised && !isAuthorised(request.headers.authorization)) {
      return send(response, 401, 'Authorization Required\n', undefined, { 'WWW-Authenticate': `Basic realm="${endpoint.options.label}"` });
    }
    try {
      if (path === '/json_rpc') return await serveJsonRpc(request, response);
      if (route) {
        const body = await readOrRefuse(request, response);
        if (!body) return;
        const answer = await route({ method: request.method ?? 'GET', headers: request.headers, body });
        return send(response, answer.status, answer.body, answer.contentType ?? 'application/json');
      }
      if (path === '/ws') return send(response, 400, 'WebSocket upgrade required on /ws\n');
      if (path === '/' && request.method === 'GET') {
        return send(response, 200, `${endpoint.options.label}: JSON-RPC 2.0 on POST /json_rpc and WebSocket /ws\n`);
      }
      return send(response, 404, `no such path: ${path}\n`);
    } catch (error) {
      logger.error(`HTTP ${request.method} ${path} failed unexpectedly: ${(error as Error).stack ?? String(error)}`);
      if (!response.headersSent) send(response, 500, 'internal error\n');
      else response.destroy();
    }
  };
}
