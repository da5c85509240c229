/**
 * A real HTTP proxy on a loopback port between a JSON-RPC client and a daemon: it records every request body as sent,
 * and can change a call on its way (a lie about what was asked) or its answer on the way back (a lie about what is
 * so), so tests can check what a client tells a daemon and that it refuses a daemon that lies.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One JSON-RPC call as the client sent it. */
export interface ProxiedCall {
  method: string;
  params?: any;
}

export interface Lie {
  /** The params to forward instead (undefined: as sent). */
  request?(call: ProxiedCall): any;
  /** The result to answer with instead (undefined: the daemon's). */
  answer?(call: ProxiedCall, result: any): any;
}

export interface RecordingProxy {
  /** The proxy's base URL, to give the client instead of the daemon's. */
  url: string;
  /** Every request body received, as text, in order. */
  readonly bodies: string[];
  /** The lie told from now on (none: an honest proxy). */
  lie: Lie | undefined;
  close(): Promise<void>;
}

interface RpcRequest extends ProxiedCall {
  id: unknown;
}

/** Starts a proxy in front of the daemon at `target` (its base URL). */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const proxy: RecordingProxy = { url: '', bodies: [], lie: undefined, close: async () => {} };
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', async () => {
      proxy.bodies.push(body);
      const sent = JSON.parse(body) as RpcRequest | RpcRequest[];
      const calls = Array.isArray(sent) ? sent : [sent];
      const forwarded = calls.map((call) => {
        const params = proxy.lie?.request?.(call);
        return params === undefined ? call : { ...call, params };
      });
      const answer = await fetch(`${target}/json_rpc`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(Array.isArray(sent) ? forwarded : forwarded[0]),
      });
      const parsed = JSON.parse(await answer.text());
      const answers = (Array.isArray(parsed) ? parsed : [parsed]).map((one: { id: unknown; result?: unknown }) => {
        const call = calls.find((c) => c.id === one.id);
        const result = call && one.result !== undefined ? proxy.lie?.answer?.(call, one.result) : undefined;
        return result === undefined ? one : { ...one, result };
      });
      response.setHeader('Content-Type', 'application/json');
      response.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise((resolve) => server.close(() => resolve()));
  return proxy;
}
