/** Starts a real app (real plugins, real HTTP servers on a free loopback port) for a test, and stops it after. */
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { composeApp, type App } from '../../host/app.js';
import { loadConfig } from '../../host/config/load.js';
import { createLogger, type Logger } from '../../host/logger.js';
import { parseExactJson } from '../../protocol/exact-json.js';

export interface TestApp {
  app: App;
  /** Base URL of the daemon RPC server, e.g. http://127.0.0.1:43121 */
  url: string;
  logLines: string[];
}

export async function startTestApp(t: Test, flags: Record<string, unknown> = {}): Promise<TestApp> {
  const logLines: string[] = [];
  const logger: Logger = createLogger('debug', (line) => logLines.push(line));
  // No P2P or getwork listener unless a test asks: the testnet default ports would clash between tests side by side.
  const config = loadConfig({
    flags: { network: 'testnet', store: 'memory', rpcBind: '127.0.0.1:0', p2pBind: '', getworkBind: '', ...flags },
  });
  const app = await composeApp(config, { logger });
  await app.start();
  t.teardown(() => app.stop());
  const server = app.container.cradle.httpServers.get('daemon');
  const port = (server!.address() as AddressInfo).port;
  return { app, url: `http://127.0.0.1:${port}`, logLines };
}

/** POSTs a JSON-RPC body (object or raw text) to /json_rpc and returns status, headers and the body, parsed exactly. */
export async function postRpc(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/json_rpc`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: any;
  try {
    json = text ? parseExactJson(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

let nextRpcId = 1;

/** Calls a JSON-RPC method; a JSON-RPC error becomes a rejection carrying its `code` and `data`. */
export async function rpcCall(url: string, method: string, params?: unknown): Promise<any> {
  const response = await postRpc(url, {
    jsonrpc: '2.0',
    id: nextRpcId++,
    method,
    ...(params === undefined ? {} : { params }),
  });
  if (response.json?.error)
    throw Object.assign(new Error(response.json.error.message), {
      code: response.json.error.code,
      data: response.json.error.data,
    });
  return response.json.result;
}

/** Mines one block through GetBlockTemplate + SubmitBlock (the simulator checks no proof of work). Returns its id. */
export async function mineOneViaRpc(url: string, address: string): Promise<string> {
  for (;;) {
    const job = await rpcCall(url, 'NODE.GetBlockTemplate', { wallet_address: address });
    const result = await rpcCall(url, 'NODE.SubmitBlock', { jobid: job.jobid, mbl_blob: job.blockhashing_blob });
    if (result.block_found) return result.blid;
  }
}
