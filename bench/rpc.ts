/**
 * RPC throughput: NODE.Ping through the real daemon (child process, all default plugins) beside a bare node:http
 * server parsing the same JSON-RPC body — the floor of one Node process. Load from autocannon on the same machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { runBench, type BenchRow } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const DURATION_S = Number(process.env['BENCH_SECONDS'] ?? 5);
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'NODE.Ping' });

/** Starts a child process and resolves with it and the first match of `pattern` in its output. */
function startServer(args: string[], pattern: RegExp): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (data: Buffer): void => {
      output += data.toString();
      const match = pattern.exec(output);
      if (match) resolve({ child, port: Number(match[1]) });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before it was ready:\n${output}`)));
  });
}

async function load(port: number, connections: number): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/json_rpc`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: PING,
    connections,
    duration: DURATION_S,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`load run had ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  return result.requests.average;
}

async function main(): Promise<void> {
  const servers = {
    daemon: await startServer([join(repo, 'bin', 'umbra'), 'daemon', '--testnet', '--store', 'memory', '--rpc-bind', '127.0.0.1:0', '--p2p-bind', '', '--transports', 'http'], /listening on http:\/\/127\.0\.0\.1:(\d+)/),
    bare: await startServer([join(here, 'lib', 'bare-rpc-server.js')], /^(\d+)$/m),
  };
  const rows: BenchRow[] = [];
  try {
    for (const connections of [4, 16]) {
      for (const [impl, server] of Object.entries(servers)) {
        await load(server.port, connections); // warm-up at the same concurrency (JIT, connection pools)
        rows.push({ case: `ping-${connections}conn`, impl, unit: 'req/s', value: Math.round(await load(server.port, connections)) });
      }
    }
  } finally {
    for (const server of Object.values(servers)) server.child.kill('SIGTERM');
  }
  runBench('rpc', rows);
  for (const connections of [4, 16]) {
    const value = (impl: string) => rows.find((r) => r.case === `ping-${connections}conn` && r.impl === impl)!.value;
    console.log(`ping-${connections}conn: daemon at ${(value('daemon') / value('bare')).toFixed(2)}× the bare server (target ≥ 0.6×)`);
  }
}

await main();
