/**
 * RPC throughput: NODE.Ping through the real daemon (child process, all default plugins) beside a bare node:http
 * server parsing the same JSON-RPC body — the floor of one Node process. Load from autocannon on the same machine.
 */
import { BARE_SERVER, requestsPerSecond, startServer, UMBRA } from './lib/rpc-load.js';
import { runBench, type BenchRow } from './harness.js';

const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'NODE.Ping' });

const servers = {
  daemon: await startServer(
    [
      UMBRA,
      'daemon',
      '--testnet',
      '--store',
      'memory',
      '--rpc-bind',
      '127.0.0.1:0',
      '--p2p-bind',
      '',
      '--transports',
      'http',
    ],
    /listening on http:\/\/127\.0\.0\.1:(\d+)/,
  ),
  bare: await startServer([BARE_SERVER], /^(\d+)$/m),
};
const rows: BenchRow[] = [];
try {
  for (const connections of [4, 16]) {
    for (const [impl, server] of Object.entries(servers)) {
      rows.push({
        case: `ping-${connections}conn`,
        impl,
        unit: 'req/s',
        value: await requestsPerSecond(server.port, connections, PING),
      });
    }
  }
} finally {
  for (const server of Object.values(servers)) server.child.kill('SIGTERM');
}
runBench('rpc', rows);
for (const connections of [4, 16]) {
  const value = (impl: string) => rows.find((r) => r.case === `ping-${connections}conn` && r.impl === impl)!.value;
  console.log(
    `ping-${connections}conn: daemon at ${(value('daemon') / value('bare')).toFixed(2)}× the bare server (target ≥ 0.6×)`,
  );
}
