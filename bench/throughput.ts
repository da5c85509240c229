/**
 * End-to-end load (issue 21): a simulator daemon on the native core and RocksDB, transfers submitted over JSON-RPC
 * (NODE.SendRawTransaction) as fast as it admits them for 60 s while a block is mined every 6 s; the figure is the
 * transfers confirmed in those blocks per second (node-tps-ring-16, node-tps-ring-2), beside the batched
 * verification rate of the same machine just before and after each window (tx-verify-ring-N, bench/lib/verify-rate.ts).
 *
 * Why the set-up looks like this: a transfer proves against the state of a block at most 10 blocks back, and once a
 * ring member of the sender's parity has sent, no transfer built on an earlier state may use it there again
 * (docs/protocol.md § Transfer rules, 5). Transfers built ahead of the window therefore all reference the last block
 * before it, the window has 10 blocks, and each transfer's sender-parity half of its ring (8 accounts at ring 16, the
 * sender alone at ring 2) is its own. Senders send 0 coin with fee 0 (the simulator's minimum): what is verified and
 * executed does not depend on the amount, and thousands of one-shot senders need no funding blocks. The supply is the
 * verification rate × 60 s × THROUGHPUT_SUPPLY (default 0.8); a node that runs out before the window ends, the
 * blocks having taken every transfer it admitted, is rated over the time until it ran out. Set-up (registrations,
 * building on worker threads) is not measured. THROUGHPUT_PROFILE_DIR=dir runs the daemon under --cpu-prof;
 * THROUGHPUT_RINGS=16 (or 2) runs one window only, for a quicker look.
 *
 * main-thread-ms-per-transfer (ring 16) is the CPU time of the daemon's main thread over the window (Linux's
 * per-thread accounting: its verification workers are other threads) divided by the transfers confirmed: what the
 * node spends per transfer beside verifying it, the figure that bounds its rate on a few cores. The log also gives the
 * CPU per transfer of the daemon's other threads and of the bench's own clients, and how much of the cores all three
 * used: whether the window was bound by the CPU or by waiting.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { bigintFromBytesBE, bigintToBytes32BE } from '../core-native/ts/bigint-bytes.js';
import { loadCore } from '../core-native/ts/index.js';
import { mod } from '../core-native/ts/proof/field.js';
import { toHex } from '../protocol/bytes.js';
import { NETWORKS } from '../protocol/network.js';
import { makeRegistration } from '../protocol/registration.js';
import { encodeTransaction } from '../protocol/transaction.js';
import { runBench, type BenchRow } from './harness.js';
import { rpcCall, startSimulator } from './lib/simulator.js';
import { ownCpu } from './lib/proc-stat.js';
import { buildTransfers, type BuildJob } from './lib/transfer-builders.js';
import { batchedRate, verifySample } from './lib/verify-rate.js';

const WINDOW_BLOCKS = 10;
const BLOCK_EVERY_MS = 6000;
const CLIENTS = 64;
/** Registrations per block during set-up (the pool holds at most 10,000 transactions). */
const REGISTRATIONS_PER_BLOCK = 9000;
const SUPPLY = Number(process.env['THROUGHPUT_SUPPLY'] ?? 0.8);
const profileDir = process.env['THROUGHPUT_PROFILE_DIR'];
const RINGS = (process.env['THROUGHPUT_RINGS'] ?? '16,2').split(',').map(Number);
if (RINGS.length === 0 || RINGS.some((ring) => ring !== 16 && ring !== 2))
  throw new Error(`THROUGHPUT_RINGS is 16, 2 or 16,2, not ${process.env['THROUGHPUT_RINGS']}`);

/** The young generation bin/umbra gives `umbra daemon`. */
const DAEMON_YOUNG_GENERATION = '--max-semi-space-size=32';

const core = await loadCore({ impl: 'native' });
const domain = NETWORKS.simulator.generatorDomain;
const { G } = core.generators(domain);
const rows: BenchRow[] = [];
const log = (text: string): void => console.log(`${new Date().toISOString().slice(11, 19)} ${text}`);

/** Batched verification of ring-N transfers per second, on the cores as they are now (the machine may be shared). */
const samples = new Map(RINGS.map((ring) => [ring, verifySample(core, ring)]));
const verifyRate = async (ring: number): Promise<number> => batchedRate(core, await samples.get(ring)!, 3000);
// The supply is sized on a first measurement; the figure is that taken just before and after the ring's window.
const sizingRates = new Map<number, number>();
for (const ring of RINGS) sizingRates.set(ring, await verifyRate(ring));
const supply = (ring: number): number =>
  Math.ceil(sizingRates.get(ring)! * SUPPLY * WINDOW_BLOCKS * (BLOCK_EVERY_MS / 1000));

interface Account {
  secretKey: string;
  key: string;
}
const newAccount = (): Account => {
  const sk = bigintToBytes32BE(mod(bigintFromBytesBE(randomBytes(32))) || 1n);
  return { secretKey: toHex(sk), key: toHex(core.g1Compress(core.g1MulSecret(G, sk))) };
};
// Ring 16 first on its own accounts, then ring 2 on accounts no transfer has touched.
const ring16Accounts = RINGS.includes(16) ? Array.from({ length: supply(16) * 8 }, newAccount) : [];
const ring2Accounts = RINGS.includes(2) ? Array.from({ length: supply(2) + 1 }, newAccount) : [];

const simulator = await startSimulator(/daemon RPC http:\/\/127\.0\.0\.1:(\d+)/, {
  // A node's verification workers (one per core), not the simulator's none; and a node's store, RocksDB: the
  // simulator otherwise keeps its chain in memory, whose millions of small objects the collector would trace.
  flags: [
    ...['--wallets', '0', '--noautomine', '--crypto', 'native', '--store', 'rocksdb'],
    ...['--verify-workers', String(availableParallelism())],
  ],
  // The daemon's young generation (bin/umbra), not the simulator's smaller one: what is measured is a node's pipeline.
  nodeOptions: [
    DAEMON_YOUNG_GENERATION,
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${JSON.stringify(profileDir)}`] : []),
  ].join(' '),
});
const daemon = `http://127.0.0.1:${simulator.port}`;

/**
 * CPU time so far, in ms: of the daemon's main thread (its first task), of its other threads by name (verification
 * workers, the collector's helpers, RocksDB's, libuv's), and of this process (the clients posting the transfers).
 */
function cpuMs(): { main: number; threads: Map<string, number>; clients: number } {
  const pid = simulator.child.pid!;
  const threads = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    if (tid === String(pid)) continue;
    try {
      const { name, ms } = ownCpu(`/proc/${pid}/task/${tid}/stat`);
      threads.set(name, (threads.get(name) ?? 0) + ms);
    } catch {
      // the thread ended meanwhile
    }
  }
  const { user, system } = process.cpuUsage();
  return { main: ownCpu(`/proc/${pid}/task/${pid}/stat`).ms, threads, clients: (user + system) / 1000 };
}

/** Posts a JSON-RPC request; a connection the daemon dropped is retried on a new one. */
async function post(body: string, attempts = 3): Promise<{ error?: { message: string } }> {
  try {
    const response = await fetch(`${daemon}/json_rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return (await response.json()) as { error?: { message: string } };
  } catch (error) {
    if (attempts <= 1 || simulator.child.exitCode !== null)
      throw new Error(`${(error as Error).message}; the simulator said:\n${simulator.output().slice(-3000)}`);
    return post(body, attempts - 1);
  }
}

/** Posts `bodies` over CLIENTS connections, each the next as soon as its previous is answered, until `until()`. */
async function submit(
  bodies: readonly string[],
  until: () => boolean,
): Promise<{ admitted: number; refused: Map<string, number> }> {
  let next = 0;
  let admitted = 0;
  const refused = new Map<string, number>();
  const client = async (): Promise<void> => {
    while (!until() && next < bodies.length) {
      const answer = await post(bodies[next++]!);
      if (!answer.error) admitted++;
      else {
        const reason = answer.error.message.replace(/[0-9a-f]{64}/g, '…');
        refused.set(reason, (refused.get(reason) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return { admitted, refused };
}

const sendBody = (hex: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'NODE.SendRawTransaction', params: { tx_as_hex: hex } });

async function register(accounts: readonly Account[]): Promise<void> {
  for (let start = 0; start < accounts.length; start += REGISTRATIONS_PER_BLOCK) {
    const bodies = accounts
      .slice(start, start + REGISTRATIONS_PER_BLOCK)
      .map((a) => sendBody(toHex(encodeTransaction(makeRegistration(core, G, Buffer.from(a.secretKey, 'hex'), 0)))));
    const { admitted, refused } = await submit(bodies, () => false);
    if (refused.size > 0) throw new Error(`registrations refused: ${[...refused.keys()].join('; ')}`);
    await rpcCall(daemon, 'SIMULATOR.Mine', { count: 1 });
    log(`registered ${start + admitted} of ${accounts.length} accounts`);
  }
}

async function topReference(): Promise<{ height: string; blid: string; roothash: string }> {
  const { block_header: header } = await rpcCall(daemon, 'NODE.GetLastBlockHeader');
  const block = await rpcCall(daemon, 'NODE.GetBlock', { hash: header.hash });
  return { height: String(header.height), blid: header.hash, roothash: JSON.parse(block.json).state_root };
}

/** Each transfer's sender-parity half is its own `ring / 2` accounts; the other half is drawn from all of them. */
function ringJobs(ring: number, accounts: readonly Account[], count: number): BuildJob[] {
  const half = ring / 2;
  return Array.from({ length: count }, (_, i) => {
    const own = accounts.slice(i * half, (i + 1) * half);
    const members = new Array<string>(ring);
    own.forEach((a, k) => (members[2 * k] = a.key));
    const taken = new Set(own);
    for (let k = 0; k < half; k++) {
      let other: Account;
      do
        other =
          ring === 2 ? accounts[(i + 1) % accounts.length]! : accounts[Math.floor(Math.random() * accounts.length)]!;
      while (taken.has(other));
      taken.add(other);
      members[2 * k + 1] = other.key;
    }
    const senderSlot = i % half;
    return { secretKey: own[senderSlot]!.secretKey, ring: members, senderIndex: 2 * senderSlot, receiverIndex: 1 };
  });
}

/**
 * Builds `count` ring-`ring` transfers on the top, then runs the 60 s window; returns the transfers confirmed per
 * second and the batched verification rate (the mean of one measurement before the window and one after it).
 */
async function window(
  ring: number,
  accounts: readonly Account[],
  count: number,
): Promise<{ rate: number; verified: number; mainThreadMsPerTransfer: number }> {
  const reference = await topReference();
  let started = performance.now();
  const txs = await buildTransfers(domain, reference, ringJobs(ring, accounts, count));
  log(`ring ${ring}: built ${count} transfers in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const bodies = txs.map(sendBody);
  const verifiedBefore = await verifyRate(ring);
  let blocksMined = 0;
  log(`ring ${ring}: window opens`);
  const cpuBefore = cpuMs();
  started = performance.now();
  let exhaustedAt: number | undefined;
  const submitting = submit(bodies, () => blocksMined === WINDOW_BLOCKS).then((result) => {
    if (blocksMined < WINDOW_BLOCKS) exhaustedAt = performance.now() - started;
    return result;
  });
  const minedAt: number[] = [];
  for (let b = 1; b <= WINDOW_BLOCKS; b++) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + b * BLOCK_EVERY_MS - performance.now())));
    await rpcCall(daemon, 'SIMULATOR.Mine', { count: 1 });
    minedAt.push(performance.now() - started);
    if (b === WINDOW_BLOCKS) blocksMined = b;
  }
  const { admitted, refused } = await submitting;
  const cpuAfter = cpuMs();
  const mainThread = cpuAfter.main - cpuBefore.main;
  let confirmed = 0;
  for (let b = 1; b <= WINDOW_BLOCKS; b++) {
    const { block_header: header } = await rpcCall(daemon, 'NODE.GetBlockHeaderByTopoHeight', {
      topoheight: Number(reference.height) + b,
    });
    confirmed += header.txcount;
  }
  // A node that ran out of transfers, all of which the blocks took, is rated over the time it had them to admit.
  const seconds = (exhaustedAt !== undefined && confirmed === admitted ? exhaustedAt : minedAt.at(-1)!) / 1000;
  log(
    `ring ${ring}: ${admitted} admitted, ${confirmed} confirmed in ${WINDOW_BLOCKS} blocks over ` +
      `${(minedAt.at(-1)! / 1000).toFixed(1)} s` +
      (exhaustedAt === undefined ? '' : `; the supply ran out at ${(exhaustedAt / 1000).toFixed(1)} s`),
  );
  for (const [reason, times] of refused) log(`  refused ${times}×: ${reason}`);
  const mainThreadMsPerTransfer = Math.round((mainThread / Math.max(1, confirmed)) * 100) / 100;
  log(`ring ${ring}: the main thread was busy ${((mainThread / minedAt.at(-1)!) * 100).toFixed(0)} % of the window`);
  const perTransfer = (ms: number): string => (ms / Math.max(1, confirmed)).toFixed(2);
  const others = [...cpuAfter.threads].map(([name, ms]): [string, number] => [
    name,
    ms - (cpuBefore.threads.get(name) ?? 0),
  ]);
  const clients = cpuAfter.clients - cpuBefore.clients;
  const used = mainThread + clients + others.reduce((sum, [, ms]) => sum + ms, 0);
  log(
    `ring ${ring}: CPU ms per confirmed transfer: main thread ${perTransfer(mainThread)}, ` +
      others
        .filter(([, ms]) => ms > 0)
        .sort((a, b) => b[1] - a[1])
        .map(([name, ms]) => `${name} ${perTransfer(ms)}`)
        .join(', ') +
      `, the bench's clients ${perTransfer(clients)}; ${((used / minedAt.at(-1)! / availableParallelism()) * 100).toFixed(0)} % of the cores`,
  );
  // What the window left in the pool expires with the next block.
  await rpcCall(daemon, 'SIMULATOR.Mine', { count: 1 });
  const verified = Math.round(((verifiedBefore + (await verifyRate(ring))) / 2) * 10) / 10;
  return { rate: Math.round((confirmed / seconds) * 10) / 10, verified, mainThreadMsPerTransfer };
}

try {
  await register([...ring16Accounts, ...ring2Accounts]);
  for (const [ring, accounts] of (
    [
      [16, ring16Accounts],
      [2, ring2Accounts],
    ] as const
  ).filter(([ring]) => RINGS.includes(ring))) {
    const { rate, verified, mainThreadMsPerTransfer } = await window(ring, accounts, supply(ring));
    rows.push({ case: `tx-verify-ring-${ring}`, impl: 'native-batched-2-cores', unit: 'tx/s', value: verified });
    rows.push({ case: `node-tps-ring-${ring}`, impl: 'native', unit: 'tx/s', value: rate });
    if (ring === 16)
      rows.push({ case: 'main-thread-ms-per-transfer', impl: 'native', unit: 'ms', value: mainThreadMsPerTransfer });
    console.log(`ring ${ring}: node ÷ batched verification = ${(rate / verified).toFixed(2)}`);
  }
} finally {
  simulator.child.kill('SIGINT');
  await new Promise((resolve) => simulator.child.once('exit', resolve));
}
runBench('throughput', rows);
