/** `umbra simulator` (two wallets, free ports, its own home) in a child process, and JSON-RPC calls to it. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer, UMBRA } from './rpc-load.js';

/**
 * Starts the simulator and resolves once `ready` appears in its output (group 1, if any: the daemon's port); `flags`
 * replace the default `--wallets 2`, `nodeOptions` go to its Node in NODE_OPTIONS (a profiler), after
 * those of the environment.
 */
export function startSimulator(
  ready: RegExp,
  { flags = ['--wallets', '2'], nodeOptions }: { flags?: string[]; nodeOptions?: string } = {},
): Promise<RunningServer> {
  const home = mkdtempSync(join(tmpdir(), 'umbra-bench-home-'));
  const args = ['simulator', ...flags, '--rpc-bind', '127.0.0.1:0', '--wallet-rpc-port-base', '0'];
  // After the environment's own options, so that a run can also set others (a heap size, a GC trace).
  const options = [process.env.NODE_OPTIONS, nodeOptions].filter(Boolean).join(' ');
  const env = { ...process.env, HOME: home, ...(options && { NODE_OPTIONS: options }) };
  return startServer([UMBRA, ...args, '--log-level', 'warn'], ready, env);
}

/** Calls a JSON-RPC method at `url`; an error answer throws, naming the method. */
export async function rpcCall(url: string, method: string, params: unknown = {}): Promise<any> {
  const response = await fetch(`${url}/json_rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: any; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}
