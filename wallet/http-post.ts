/**
 * One HTTP POST and its answer as text, on Node's own http and https modules with kept-alive connections. Not the
 * global fetch: its client (undici) is loaded on first use and holds ≈ 10 MiB more than these modules, paid by every
 * wallet process and by `umbra simulator`, whose 22 wallets reach their daemon this way (docs/operations.md § Memory).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface HttpAnswer {
  status: number;
  text: string;
}

/** The request got no whole answer within the time it was given. */
export class HttpTimeoutError extends Error {
  override readonly name = 'HttpTimeoutError';
}

// Idle kept-alive sockets do not hold the process open (Node unrefs them).
const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

/**
 * POSTs `body` to `url` with `headers`; resolves with the status and the body as UTF-8 text whatever the status,
 * rejects with the socket's error (its `code`, e.g. ECONNREFUSED) or an HttpTimeoutError after `timeoutMs`.
 */
export function postText(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<HttpAnswer> {
  const secure = url.startsWith('https:');
  return new Promise((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
      agent: secure ? httpsAgent : httpAgent,
    });
    const timer = setTimeout(
      () => request.destroy(new HttpTimeoutError(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const fail = (error: Error): void => {
      clearTimeout(timer);
      reject(error);
    };
    request.on('error', fail);
    request.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', fail);
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    request.end(body);
  });
}
