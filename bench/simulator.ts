/**
 * The simulator as contract developers' scripts use it: NODE.GetInfo and NODE.GetHeight throughput with 4 and 16
 * connections beside the bare-server floor (bench/lib/bare-rpc-server), through `umbra simulator` in a child process.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BARE_SERVER, requestsPerSecond, startServer, UMBRA } from './lib/rpc-load.js';
import { runBench, type BenchRow } from './harness.js';

const home = mkdtempSync(join(tmpdir(), 'umbra-bench-home-'));
const simulator = await startServer([UMBRA, 'simulator', '--wallets', '2', '--rpc-bind', '127.0.0.1:0', '--wallet-rpc-port-base', '0', '--log-level', 'warn'], /daemon RPC http:\/\/127\.0\.0\.1:(\d+)/, { ...process.env, HOME: home });
const bare = await startServer([BARE_SERVER], /^(\d+)$/m);
const rows: BenchRow[] = [];
try {
  for (const [name, method] of [['getinfo', 'NODE.GetInfo'], ['getheight', 'NODE.GetHeight']] as const) {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method });
    for (const connections of [4, 16]) {
      rows.push({ case: `${name}-${connections}conn`, impl: 'simulator', unit: 'req/s', value: await requestsPerSecond(simulator.port, connections, body) });
      rows.push({ case: `${name}-${connections}conn`, impl: 'bare', unit: 'req/s', value: await requestsPerSecond(bare.port, connections, body) });
    }
  }
} finally {
  simulator.child.kill('SIGINT');
  bare.child.kill('SIGTERM');
}
runBench('simulator', rows);
console.log('target: the simulator at ≥ 0.5× the bare server');
