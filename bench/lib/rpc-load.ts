/** RPC load plumbing shared by the rpc and simulator benches: servers as child processes, autocannon load. */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = join(here, '..', '..', '..');
export const UMBRA = join(REPO, 'bin', 'umbra');
/** The floor of one Node process: a bare node:http server (bench/lib/bare-rpc-server). */
export const BARE_SERVER = [process.execPath, join(here, 'bare-rpc-server.js')];
const DURATION_S = Number(process.env['BENCH_SECONDS'] ?? 5);

/** `bin/umbra daemon` on a memory store, RPC on a free loopback port, no P2P; `extra` says the rest. */
export const inMemoryDaemonArgs = (extra: string[]): string[] => [
  UMBRA,
  'daemon',
  '--store',
  'memory',
  '--rpc-bind',
  '127.0.0.1:0',
  '--p2p-bind',
  '',
  ...extra,
];

export interface RunningServer {
  child: ChildProcess;
  port: number;
  /** Everything it printed so far. */
  output(): string;
}

/**
 * Starts `command` (a program, then its arguments) as a child process and resolves once `pattern` appears in its
 * output (group 1: its port).
 */
export function startServer(
  command: readonly string[],
  pattern: RegExp,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const [program, ...args] = command;
    const child = spawn(program!, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (data: Buffer): void => {
      output += data.toString();
      const match = pattern.exec(output);
      if (match) resolve({ child, port: Number(match[1]), output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before it was ready:\n${output}`)));
  });
}

/**
 * Requests per second of one JSON-RPC call POSTed over `connections` connections, after a warm-up at the same load;
 * with `body` a path (starting with `/`) instead, of GETs of that path (an explorer page).
 */
export async function requestsPerSecond(port: number, connections: number, body: string): Promise<number> {
  const get = body.startsWith('/');
  const run = async (): Promise<number> => {
    const result = await autocannon({
      url: `http://127.0.0.1:${port}${get ? body : '/json_rpc'}`,
      connections,
      duration: DURATION_S,
      ...(get ? { method: 'GET' } : { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
    });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`load run had ${result.non2xx} non-2xx answers and ${result.errors} errors`);
    return result.requests.average;
  };
  await run(); // JIT, connection pools
  return Math.round(await run());
}
