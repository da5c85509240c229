/**
 * The simulator as contract developers' scripts use it, through `umbra simulator` in a child process: how long from a
 * wallet's `scinvoke` until the call's effect shows in NODE.GetSC (median of several lottery plays), and NODE.GetInfo
 * and NODE.GetHeight throughput with 4 and 16 connections beside the bare-server floor (bench/lib/bare-rpc-server).
 */
import { readFileSync } from 'node:fs';
import { BARE_SERVER, requestsPerSecond, startServer } from './lib/rpc-load.js';
import { rpcCall, startSimulator } from './lib/simulator.js';
import { runBench, type BenchRow } from './harness.js';

const simulator = await startSimulator(/daemon RPC http:\/\/127\.0\.0\.1:(\d+)/);
const bare = await startServer(BARE_SERVER, /^(\d+)$/m);
const rows: BenchRow[] = [];

/** Milliseconds from scinvoke to the effect visible in GetSC, for each of `plays` lottery plays. */
async function scinvokeVisible(plays: number): Promise<number[]> {
  const wallet = /wallet 1: \S+ (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/.exec(simulator.output())![1]!;
  const installer = /wallet 0: \S+ (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/.exec(simulator.output())![1]!;
  const daemon = `http://127.0.0.1:${simulator.port}`;
  const installed = await fetch(`${installer}/install_sc`, {
    method: 'POST',
    body: readFileSync('examples/contracts/lottery.bas', 'utf8'),
  });
  const { txid: scid } = (await installed.json()) as { txid: string };
  const total = async (): Promise<number | undefined> => {
    try {
      return (await rpcCall(daemon, 'NODE.GetSC', { scid, variables: true, code: false })).stringkeys.deposit_total;
    } catch {
      return undefined; // not installed yet
    }
  };
  while ((await total()) === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
  const times: number[] = [];
  for (let i = 0; i < plays; i++) {
    const before = await total();
    const start = performance.now();
    await rpcCall(wallet, 'scinvoke', {
      scid,
      sc_rpc: [{ name: 'entrypoint', datatype: 'S', value: 'Lottery' }],
      sc_dero_deposit: 1000,
      ringsize: 2,
    });
    while ((await total()) === before) await new Promise((resolve) => setTimeout(resolve, 5));
    times.push(performance.now() - start);
  }
  return times;
}

try {
  // Several plays (lotteryeveryXdeposit is 2, so some also pay out); the median is the figure.
  const times = (await scinvokeVisible(7)).sort((a, b) => a - b);
  rows.push({
    case: 'scinvoke-visible',
    impl: 'simulator',
    unit: 'ms',
    value: Math.round(times[Math.floor(times.length / 2)]!),
  });
  for (const [name, method] of [
    ['getinfo', 'NODE.GetInfo'],
    ['getheight', 'NODE.GetHeight'],
  ] as const) {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method });
    for (const connections of [4, 16]) {
      rows.push({
        case: `${name}-${connections}conn`,
        impl: 'simulator',
        unit: 'req/s',
        value: await requestsPerSecond(simulator.port, connections, body),
      });
      rows.push({
        case: `${name}-${connections}conn`,
        impl: 'bare',
        unit: 'req/s',
        value: await requestsPerSecond(bare.port, connections, body),
      });
    }
  }
} finally {
  simulator.child.kill('SIGINT');
  bare.child.kill('SIGTERM');
}
runBench('simulator', rows);
console.log('targets: scinvoke-visible under 1000 ms; the simulator at ≥ 0.5× the bare server');
