/**
 * Memory and start-up, as a user meets them (docs/operations.md § Memory), each in a child process like `umbra` runs:
 * - `simulator-rss`: the resident size (MiB) of `umbra simulator` (22 wallets, native crypto) once it has started and
 *   20 transfers (wallets 0 … 19 to wallet 21) are mined and seen by the receiver;
 * - `simulator-ready`: milliseconds from spawning `umbra simulator` to wallet 0 answering GetBalance (median of three
 *   starts; the balance table is on disk by then, as on every start after the first); `simulator-ready-cpu`: the CPU
 *   time the process and its exited children spent by then (median), steadier than the wall clock on a busy machine;
 * - `daemon-rss-over-node`: the resident size of an idle testnet daemon on an in-memory store above that of a bare
 *   Node process (an empty timer loop) started the same way in the same run;
 * - `cli-version`: milliseconds from spawning `bin/umbra --version` to its exit (median of VERSION_RUNS), the start-up
 *   every command pays before doing its own work; `cli-version-cpu`: the CPU time it spent (mean).
 * Linux only (resident sizes from /proc/<pid>/status).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench, type BenchRow } from './harness.js';
import { statCpu } from './lib/proc-stat.js';
import { startServer, UMBRA, type RunningServer } from './lib/rpc-load.js';
import { rpcCall } from './lib/simulator.js';

const TRANSFERS = 20;
const READY_STARTS = 3;
const IDLE_MS = 3000;
const VERSION_RUNS = 9;

const home = mkdtempSync(join(tmpdir(), 'umbra-bench-memory-'));
const env = { ...process.env, HOME: home };
const rows: BenchRow[] = [];

/**
 * CPU time a running child has spent, with that of its own children that have exited, ms: the simulator's funding
 * proofs are partly made by a helper process, gone by the time wallet 0 answers.
 */
const cpuMs = (child: ChildProcess): number => statCpu(`/proc/${child.pid}/stat`, 11, 15).ms;

/** Resident set size of a running child, MiB. */
function rssMiB(child: ChildProcess): number {
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
  if (!kib) throw new Error(`no VmRSS for process ${child.pid}`);
  return Number(kib[1]) / 1024;
}

const median = (values: number[]): number => Math.round(values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function stopped(server: RunningServer): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGINT');
  await exited;
}

/** `umbra simulator` with 22 wallets on free ports; resolves once wallet 0 answers GetBalance, with the time it took. */
async function startSimulator(): Promise<{
  simulator: RunningServer;
  readyMs: number;
  readyCpuMs: number;
  wallets: string[];
}> {
  const start = performance.now();
  const simulator = await startServer(
    [
      UMBRA,
      ...['simulator', '--crypto', 'native', '--rpc-bind', '127.0.0.1:0', '--wallet-rpc-port-base', '0'],
      ...['--log-level', 'warn'],
    ],
    /wallet 0: \S+ http:\/\/127\.0\.0\.1:(\d+)\/json_rpc/,
    env,
  );
  await rpcCall(`http://127.0.0.1:${simulator.port}`, 'GetBalance');
  const readyMs = performance.now() - start;
  const readyCpuMs = cpuMs(simulator.child);
  while (!simulator.output().includes('simulator ready')) await sleep(10);
  const wallets = [...simulator.output().matchAll(/wallet \d+: (\S+) (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/g)];
  return { simulator, readyMs, readyCpuMs, wallets: wallets.map((m) => `${m[1]} ${m[2]}`) };
}

/** Resident MiB after start-up and TRANSFERS transfers, each from its own wallet to the last one. */
async function simulatorAfterTransfers(): Promise<number> {
  const { simulator, wallets } = await startSimulator();
  try {
    const [receiver, receiverUrl] = wallets.at(-1)!.split(' ') as [string, string];
    const before = BigInt((await rpcCall(receiverUrl, 'GetBalance')).balance);
    for (const wallet of wallets.slice(0, TRANSFERS)) {
      const url = wallet.split(' ')[1]!;
      await rpcCall(url, 'transfer', { transfers: [{ destination: receiver, amount: 1 }], ringsize: 2 });
    }
    while (BigInt((await rpcCall(receiverUrl, 'GetBalance')).balance) < before + BigInt(TRANSFERS)) await sleep(50);
    return rssMiB(simulator.child);
  } finally {
    await stopped(simulator);
  }
}

/** Resident MiB of an idle testnet daemon and of a bare Node process, each IDLE_MS after it is up. */
async function daemonAndBareNode(): Promise<{ daemon: number; node: number }> {
  const daemon = await startServer(
    [
      UMBRA,
      ...['daemon', '--testnet', '--store', 'memory', '--data-dir', join(home, 'testnet')],
      ...['--rpc-bind', '127.0.0.1:0', '--p2p-bind', '127.0.0.1:0', '--getwork-bind', '127.0.0.1:0'],
    ],
    /daemon RPC listening on http:\/\/127\.0\.0\.1:(\d+)/,
    env,
  );
  const bare = await startServer(
    [process.execPath, '-e', 'setInterval(() => {}, 1000); console.log(0)'],
    /^(\d+)$/m,
    env,
  );
  try {
    await sleep(IDLE_MS);
    return { daemon: rssMiB(daemon.child), node: rssMiB(bare.child) };
  } finally {
    bare.child.kill('SIGTERM');
    await stopped(daemon);
  }
}

/** Milliseconds `bin/umbra --version` takes, spawn to exit, and the CPU time it spent. */
function versionRun(): { ms: number; cpuMs: number } {
  const cpuBefore = statCpu('/proc/self/stat', 13, 15).ms;
  const start = performance.now();
  const run = spawnSync(UMBRA, ['--version'], { env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`umbra --version failed: ${run.stderr}`);
  return { ms: performance.now() - start, cpuMs: statCpu('/proc/self/stat', 13, 15).ms - cpuBefore };
}

try {
  const versionRuns = Array.from({ length: VERSION_RUNS }, versionRun);
  rows.push({ case: 'cli-version', impl: 'native', unit: 'ms', value: median(versionRuns.map((run) => run.ms)) });
  // Ticks of 10 ms each: the mean over the runs, steadier than the wall clock on a busy machine.
  const versionCpuMs = versionRuns.reduce((sum, run) => sum + run.cpuMs, 0) / VERSION_RUNS;
  rows.push({ case: 'cli-version-cpu', impl: 'native', unit: 'ms', value: Math.round(versionCpuMs) });
  // The first start writes the balance table to the cache directory, as a user's first start does.
  rows.push({ case: 'simulator-rss', impl: 'native', unit: 'MiB', value: Math.round(await simulatorAfterTransfers()) });
  const readyTimes: number[] = [];
  const readyCpuTimes: number[] = [];
  for (let i = 0; i < READY_STARTS; i++) {
    const { simulator, readyMs, readyCpuMs } = await startSimulator();
    readyTimes.push(readyMs);
    readyCpuTimes.push(readyCpuMs);
    await stopped(simulator);
  }
  rows.push({ case: 'simulator-ready', impl: 'native', unit: 'ms', value: median(readyTimes) });
  rows.push({ case: 'simulator-ready-cpu', impl: 'native', unit: 'ms', value: median(readyCpuTimes) });
  const { daemon, node } = await daemonAndBareNode();
  rows.push({ case: 'daemon-rss-over-node', impl: 'native', unit: 'MiB', value: Math.round(daemon - node) });
  rows.push({ case: 'daemon-rss', impl: 'native', unit: 'MiB', value: Math.round(daemon) });
  rows.push({ case: 'bare-node-rss', impl: 'node', unit: 'MiB', value: Math.round(node) });
} finally {
  rmSync(home, { recursive: true, force: true });
}
runBench('memory', rows);
console.log(
  'targets: simulator-rss ≤ 100 MiB; daemon-rss-over-node ≤ 40 MiB; simulator-ready ≤ 1000 ms; cli-version ≤ 150 ms',
);
