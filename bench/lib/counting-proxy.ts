/**
 * What a wallet downloads, counted where it crosses the wire: an HTTP proxy on a loopback port in front of the daemon
 * that forwards each JSON-RPC post as it is and counts the answers' bytes, the requests, the calls by method and the
 * time spent waiting for answers by method (a batch holds calls of one method: its wait is that method's).
 */
import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Traffic {
  bytes: number;
  requests: number;
  calls: Record<string, number>;
  waits: Record<string, number>;
}

/** Starts the proxy in front of `target` (`http://host:port`); its URL, what it counted so far, and how to stop it. */
export async function startCountingProxy(target: string) {
  const traffic: Traffic = { bytes: 0, requests: 0, calls: {}, waits: {} };
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const sent = JSON.parse(body.toString('utf8')) as { method: string } | { method: string }[];
      const methods = (Array.isArray(sent) ? sent : [sent]).map(({ method }) => method);
      for (const method of methods) traffic.calls[method] = (traffic.calls[method] ?? 0) + 1;
      traffic.requests++;
      const asked = performance.now();
      const forward = httpRequest(
        `${target}${incoming.url}`,
        { method: 'POST', headers: incoming.headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.on('data', (chunk: Buffer) => {
            traffic.bytes += chunk.length;
            outgoing.write(chunk);
          });
          answer.on('end', () => {
            traffic.waits[methods[0]!] = (traffic.waits[methods[0]!] ?? 0) + performance.now() - asked;
            outgoing.end();
          });
        },
      );
      forward.on('error', () => outgoing.writeHead(502).end());
      forward.end(body);
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    traffic,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
