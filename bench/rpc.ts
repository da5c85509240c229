/**
 * RPC throughput: NODE.Ping through the real daemon (child process, all default plugins) beside the same daemon
 * without the explorer plugin and a bare node:http server parsing the same JSON-RPC body — the floor of one Node
 * process; and the explorer's home page (`explorer-home`) served by a daemon on a chain of 1000 blocks, built before
 * the measurement. Load from autocannon on the same machine; the ping figures are medians of three rounds taken in a
 * rotating order.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAEMON_PLUGINS } from '../host/config/defaults.js';
import { BARE_SERVER, inMemoryDaemonArgs, requestsPerSecond, startServer, type RunningServer } from './lib/rpc-load.js';
import { runBench, type BenchRow } from './harness.js';

const medianOf = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'NODE.Ping' });
const EXPLORER_CHAIN_BLOCKS = 1000;
/** Measuring rounds per server and connection count. */
const ROUNDS = 3;
/** Most blocks one SIMULATOR.Mine request makes. */
const MINE_PER_REQUEST = 100;

const daemonArgs = inMemoryDaemonArgs(['--transports', 'http']);
const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;

/** A simulator-network daemon (explorer on, mining only on request) holding a chain of `blocks` mined blocks. */
async function daemonWithChain(blocks: number): Promise<RunningServer> {
  const config = join(mkdtempSync(join(tmpdir(), 'umbra-bench-rpc-')), 'config.json');
  writeFileSync(config, JSON.stringify({ automine: false }));
  const plugins = [...DAEMON_PLUGINS, 'simulator'].join(',');
  const server = await startServer(
    [...daemonArgs, '--network', 'simulator', '--plugins', plugins, '--config', config],
    LISTENING,
  );
  for (let mined = 0; mined < blocks; mined += MINE_PER_REQUEST) {
    const response = await fetch(`http://127.0.0.1:${server.port}/json_rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SIMULATOR.Mine', params: { blocks: MINE_PER_REQUEST } }),
    });
    const answer = (await response.json()) as { error?: { message: string } };
    if (answer.error) throw new Error(`SIMULATOR.Mine: ${answer.error.message}`);
  }
  const info = await fetch(`http://127.0.0.1:${server.port}/explorer/?format=json`);
  const height = ((await info.json()) as { height: number }).height;
  if (height !== blocks) throw new Error(`the chain for explorer-home is ${height} blocks high, not ${blocks}`);
  return server;
}

const servers = {
  daemon: await startServer([...daemonArgs, '--testnet'], LISTENING),
  'daemon-without-explorer': await startServer(
    [...daemonArgs, '--testnet', '--plugins', DAEMON_PLUGINS.filter((name) => name !== 'explorer').join(',')],
    LISTENING,
  ),
  bare: await startServer(BARE_SERVER, /^(\d+)$/m),
};
const rows: BenchRow[] = [];
let explorerDaemon: RunningServer | undefined;
try {
  // The servers share the machine with the load generator: one run each swings by a third. Rounds in a rotating
  // order, each server's median the figure, keep a ratio between servers from reading the machine's noise.
  const entries = Object.entries(servers);
  for (const connections of [4, 16]) {
    const runs = new Map<string, number[]>(entries.map(([impl]) => [impl, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < entries.length; i++) {
        const [impl, server] = entries[(round + i) % entries.length]!;
        runs.get(impl)!.push(await requestsPerSecond(server.port, connections, PING));
      }
    }
    for (const [impl, values] of runs)
      rows.push({ case: `ping-${connections}conn`, impl, unit: 'req/s', value: medianOf(values) });
  }
  for (const server of Object.values(servers)) server.child.kill('SIGTERM');
  explorerDaemon = await daemonWithChain(EXPLORER_CHAIN_BLOCKS);
  rows.push({
    case: 'explorer-home',
    impl: 'daemon',
    unit: 'req/s',
    value: await requestsPerSecond(explorerDaemon.port, 4, '/explorer/'),
  });
} finally {
  for (const server of Object.values(servers)) server.child.kill('SIGTERM');
  explorerDaemon?.child.kill('SIGTERM');
}
runBench('rpc', rows);
const value = (name: string, impl: string) => rows.find((r) => r.case === name && r.impl === impl)!.value;
for (const connections of [4, 16]) {
  const name = `ping-${connections}conn`;
  console.log(
    `${name}: daemon at ${(value(name, 'daemon') / value(name, 'bare')).toFixed(2)}× the bare server (target ≥ 0.6×), ` +
      `${(value(name, 'daemon') / value(name, 'daemon-without-explorer')).toFixed(2)}× the daemon without the explorer (target ≥ 0.9×)`,
  );
}
console.log(
  `explorer-home: ${value('explorer-home', 'daemon')} pages/s on ${EXPLORER_CHAIN_BLOCKS} blocks (target ≥ 300)`,
);
