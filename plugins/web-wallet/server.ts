/**
 * The web wallet's HTTP server: every answer carries a strict Content-Security-Policy (everything from this server,
 * no inline script or style, no framing); `/?token=…` trades the printed one-time token for a session; `/` is the
 * page, `/assets/…` its files, `/api/…` its API (api-routes.ts) behind the session, the page's own origin and the
 * lock; `/api/events` pushes what changed. WebSocket upgrades on `/dapp` go to the web-app connection endpoint, when
 * there is one.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { UmbraError } from '../../core-native/ts/errors.js';
import type { Logger } from '../../host/logger.js';
import type { WebAccess } from './access.js';
import type { ApiHandler, Body } from './api-routes.js';
import type { IdleLock } from './idle-lock.js';
import { noSessionHtml, pageHtml, type PageAsset } from './page-assets.js';
import type { PushStream } from './push-stream.js';
import type { WebWalletSettings } from './settings.js';
import { WebWalletErrorCode } from './web-wallet-error.js';

const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** The largest request body read (an installed contract's source is the largest). */
const MAX_BODY = 1 << 20;

export interface ServerParts {
  access: WebAccess;
  lock: IdleLock;
  push: PushStream;
  routes: Map<string, ApiHandler>;
  assets: Map<string, PageAsset>;
  settings: WebWalletSettings;
  logger: Logger;
}

function send(response: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  response.end(body);
}

const sendJson = (response: ServerResponse, status: number, value: unknown): void =>
  send(
    response,
    status,
    'application/json',
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
  );

async function readBody(request: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new RangeError('the request is larger than 1 MiB');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const parsed: unknown = text === '' ? {} : JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SyntaxError('not an object');
  return parsed as Body;
}

function serveAsset(request: IncomingMessage, response: ServerResponse, asset: PageAsset): void {
  const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  const body = gzip ? asset.gzipped : asset.body;
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': asset.contentType,
    'Cache-Control': 'no-cache',
    'Content-Length': body.length,
    Vary: 'Accept-Encoding',
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
  });
  response.end(body);
}

function servePage(parts: ServerParts, request: IncomingMessage, response: ServerResponse, url: URL): void {
  const token = url.searchParams.get('token');
  if (token !== null) {
    const cookie = parts.access.redeem(token);
    if (!cookie)
      return send(
        response,
        403,
        'text/html; charset=utf-8',
        noSessionHtml('This link was used already or is wrong: restart umbra wallet web for a new one.'),
      );
    response.writeHead(303, { ...SECURITY_HEADERS, 'Set-Cookie': cookie, Location: '/' });
    return void response.end();
  }
  const session = parts.access.sessionToken(request);
  if (!session)
    return send(response, 401, 'text/html; charset=utf-8', noSessionHtml(parts.access.checkRead(request)!.message));
  send(response, 200, 'text/html; charset=utf-8', pageHtml(session));
}

async function serveApi(parts: ServerParts, request: IncomingMessage, response: ServerResponse, path: string) {
  const method = request.method === 'GET' ? 'GET' : request.method === 'POST' ? 'POST' : undefined;
  const refusal = method === 'GET' ? parts.access.checkRead(request) : parts.access.checkChange(request);
  if (refusal) return sendJson(response, refusal.status, { error: refusal.message });
  if (method === 'GET' && path === '/api/events') return parts.push.attach(response);
  const handler = parts.routes.get(`${method} ${path}`);
  if (!handler) return sendJson(response, 404, { error: `no ${request.method} ${path}` });
  if (parts.lock.isLocked && !handler.whileLocked) return sendJson(response, 423, { error: 'the wallet is locked' });
  let body: Body = {};
  if (method === 'POST') {
    try {
      body = await readBody(request);
    } catch (error) {
      return sendJson(response, 400, { error: `the request body must be a JSON object: ${(error as Error).message}` });
    }
  }
  try {
    sendJson(response, 200, (await handler.run(body)) ?? {});
  } catch (error) {
    if (!(error instanceof UmbraError)) {
      parts.logger.warn(`web wallet ${path}: ${(error as Error).stack ?? String(error)}`);
      return sendJson(response, 500, { error: (error as Error).message });
    }
    sendJson(response, error.code === WebWalletErrorCode.WrongPassword ? 401 : 400, { error: error.message });
  }
}

export function webWalletServer(parts: ServerParts): Server {
  const server = createServer((request, response) => {
    const login = parts.access.checkLogin(request);
    if (login) {
      const ask = login.status === 401 ? { 'WWW-Authenticate': 'Basic realm="Umbra wallet"' } : {};
      response.writeHead(login.status, { ...SECURITY_HEADERS, ...ask, 'Content-Type': 'text/plain; charset=utf-8' });
      return void response.end(login.message);
    }
    const url = new URL(request.url ?? '/', 'http://wallet');
    const asset = parts.assets.get(url.pathname);
    if (asset && request.method === 'GET') return serveAsset(request, response, asset);
    if (url.pathname === '/' && request.method === 'GET') return servePage(parts, request, response, url);
    if (url.pathname.startsWith('/api/'))
      return void serveApi(parts, request, response, url.pathname).catch((error: Error) => {
        parts.logger.warn(`web wallet ${url.pathname}: ${error.message}`);
        if (!response.headersSent) sendJson(response, 500, { error: error.message });
      });
    send(response, 404, 'text/plain; charset=utf-8', 'not found');
  });
  server.on('upgrade', (request, socket, head) => {
    const path = new URL(request.url ?? '/', 'http://wallet').pathname;
    const login = parts.access.checkLogin(request);
    if (path === '/dapp' && parts.settings.dappUpgrade && !login)
      return parts.settings.dappUpgrade(request, socket, head);
    const status = login ? `${login.status} ${login.status === 401 ? 'Unauthorized' : 'Forbidden'}` : '404 Not Found';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  });
  return server;
}
