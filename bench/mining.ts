/**
 * Mining: the hash rate of `umbra miner` on getwork (`standalone`, native hash; `standalone-fallback`, the TypeScript
 * hash) beside the daemon's built-in miner (`builtin`), on 1 and 2 threads, each against a testnet daemon of its own
 * (memory store) so that every miner mines real jobs at testnet difficulty (medians of ROUNDS rounds taken in
 * turns); and `job-latency`, the milliseconds from
 * a new top block to a getwork miner holding the job on it (median of LATENCY_ROUNDS blocks, on a simulator daemon
 * in this process, where blocks need no hashing).
 */
import WebSocket from 'ws';
import { loadCore } from '../core-native/ts/index.js';
import { composeApp } from '../host/app.js';
import { loadConfig } from '../host/config/load.js';
import { createLogger } from '../host/logger.js';
import { getworkPath, type ServerMessage } from '../host/mining/getwork-protocol.js';
import { encodeAddress } from '../protocol/address.js';
import { premineKey } from '../protocol/premine.js';
import { runBench, type BenchRow } from './harness.js';
import { inMemoryDaemonArgs, startServer, UMBRA, type RunningServer } from './lib/rpc-load.js';

/** Rate lines read per miner after its first (which includes the start-up); the built-in miner logs one every 10 s. */
const BUILTIN_SAMPLES = 1;
/** `umbra miner` is asked for a line every 5 s: two cover the built-in miner's one period. */
const STANDALONE_SAMPLES = 2;
const REPORT_S = 5;
/** Rounds per thread count, standalone and built-in taking turns, so that both see the machine's load alike. */
const ROUNDS = 5;
const LATENCY_ROUNDS = 30;

const core = await loadCore();
const testnetAddress = encodeAddress('testnet', premineKey(core, 'testnet'));
const medianOf = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const meanOf = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

const daemonArgs = (extra: string[]): string[] =>
  inMemoryDaemonArgs(['--testnet', '--getwork-bind', '127.0.0.1:0', ...extra]);

/** The rates (group 1 of `pattern`) a process prints, once it has printed `skip + count` of them; then it is stopped. */
async function ratesOf(server: RunningServer, pattern: RegExp, skip: number, count: number): Promise<number[]> {
  const all = new RegExp(pattern, 'g');
  for (;;) {
    const rates = [...server.output().matchAll(all)].map((match) => Number(match[1]));
    if (rates.length >= skip + count) {
      server.child.kill('SIGINT');
      return rates.slice(skip, skip + count);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function builtinRate(threads: number): Promise<number> {
  const daemon = await startServer(
    daemonArgs(['--mining-threads', String(threads), '--mining-address', testnetAddress]),
    /built-in miner started/,
  );
  return meanOf(await ratesOf(daemon, /mining on \d+ thread\(s\): ([\d.]+) H\/s/, 1, BUILTIN_SAMPLES));
}

async function standaloneRate(threads: number, crypto: 'native' | 'fallback'): Promise<number> {
  const daemon = await startServer(daemonArgs([]), /getwork server listening on ws:\/\/127\.0\.0\.1:(\d+)/);
  try {
    const miner = await startServer(
      [
        UMBRA,
        'miner',
        '--daemon-address',
        `127.0.0.1:${daemon.port}`,
        '--wallet-address',
        testnetAddress,
        '--threads',
        String(threads),
        '--crypto',
        crypto,
        '--report-every',
        String(REPORT_S),
      ],
      /connected to the getwork server/,
    );
    return meanOf(await ratesOf(miner, /([\d.]+) H\/s on \d+ thread\(s\)/, 1, STANDALONE_SAMPLES));
  } finally {
    daemon.child.kill('SIGINT');
  }
}

/** Milliseconds from each new top block to the job on it reaching a getwork miner. */
async function jobLatencies(): Promise<number[]> {
  let port = 0;
  const logger = createLogger('info', (line) => {
    const match = /getwork server listening on ws:\/\/127\.0\.0\.1:(\d+)/.exec(line);
    if (match) port = Number(match[1]);
  });
  const config = loadConfig({
    flags: {
      network: 'simulator',
      store: 'memory',
      crypto: 'native',
      rpcBind: '127.0.0.1:0',
      transports: [],
      p2pBind: '',
      getworkBind: '127.0.0.1:0',
    },
  });
  const app = await composeApp(config, { logger });
  await app.start();
  const { chain, mining } = app.container.cradle;
  const key = premineKey(core, 'simulator');
  const socket = new WebSocket(`ws://127.0.0.1:${port}${getworkPath(encodeAddress('simulator', key))}`);
  await new Promise((resolve) => socket.once('open', resolve));
  let blockAt = 0;
  let waitingFor = -1;
  let arrived: (ms: number) => void = () => {};
  chain.onBlock(() => (blockAt = performance.now()));
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as ServerMessage;
    if (message.type === 'job' && message.height === waitingFor) arrived(performance.now() - blockAt);
  });
  const latencies: number[] = [];
  try {
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      waitingFor = Number(chain.top.height) + 2;
      const latency = new Promise<number>((resolve) => (arrived = resolve));
      await mining.mineWithoutWork(key);
      latencies.push(await latency);
    }
  } finally {
    socket.close();
    await app.stop();
  }
  return latencies;
}

const rows: BenchRow[] = [];
for (const threads of [1, 2]) {
  const name = threads === 1 ? 'hashrate-1thread' : 'hashrate-2threads';
  const standalone: number[] = [];
  const builtin: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    standalone.push(await standaloneRate(threads, 'native'));
    builtin.push(await builtinRate(threads));
  }
  rows.push({ case: name, impl: 'standalone', unit: 'hashes/s', value: medianOf(standalone) });
  rows.push({ case: name, impl: 'builtin', unit: 'hashes/s', value: medianOf(builtin) });
  rows.push({
    case: name,
    impl: 'standalone-fallback',
    unit: 'hashes/s',
    value: await standaloneRate(threads, 'fallback'),
  });
}
rows.push({ case: 'job-latency', impl: 'native', unit: 'ms', value: medianOf(await jobLatencies()) });
runBench('mining', rows);
