/**
 * One `bin/umbra daemon` (simulator network, memory store, debug log) in a network namespace, for the network bench's
 * process mode: its JSON-RPC on its namespace's address, and what its log says as it happens — blocks joining its
 * chain, miniblocks joining its pool, transactions it fluffs — each with the time the daemon logged it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const P2P_PORT = 40401;
export const RPC_PORT = 40402;
const RPC_ATTEMPTS = 5;
const LAUNCHER = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/umbra');
/** The plugins a network node needs (no explorer nor metrics: less memory per process); --transports http adds the RPC. */
const PLUGINS = 'dvm,consensus,mempool,mining,p2p';

export type DaemonEvent =
  | { kind: 'block'; id: string; height: bigint; main: boolean; at: number }
  | { kind: 'miniblock'; blob: string; at: number }
  | { kind: 'fluff'; txid: string; at: number }
  | { kind: 'p2p-started'; at: number };

const PATTERNS: [RegExp, (m: RegExpExecArray, at: number) => DaemonEvent][] = [
  [
    /\[consensus\] block ([0-9a-f]+) at height (\d+): (main|side)/,
    (m, at) => ({ kind: 'block', id: m[1]!, height: BigInt(m[2]!), main: m[3] === 'main', at }),
  ],
  [/\[p2p\] miniblock ([0-9a-f]+) joined the pool/, (m, at) => ({ kind: 'miniblock', blob: m[1]!, at })],
  [/\[p2p\] fluffing transaction ([0-9a-f]+)/, (m, at) => ({ kind: 'fluff', txid: m[1]!, at })],
  [/\[p2p\] P2P (listening on|not listening)/, (_, at) => ({ kind: 'p2p-started', at })],
];

export interface DaemonOptions {
  namespace: string;
  host: string;
  /** Listen for P2P on host:P2P_PORT (else not at all). */
  listen: boolean;
  addPeers: readonly string[];
  maxPeers: number;
  /** Where to keep the daemon's log, if anywhere. */
  logFile?: string;
  onEvent(event: DaemonEvent): void;
}

export interface DaemonProcess {
  /** The top block as the log last said (id hex, height). */
  readonly top: { id: string; height: bigint };
  rpc<T>(method: string, params?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

/** Starts the daemon; resolves once its RPC listens. */
export async function startDaemon(options: DaemonOptions): Promise<DaemonProcess> {
  const { namespace, host } = options;
  const args = ['netns', 'exec', namespace, LAUNCHER, 'daemon', '--network', 'simulator', '--store', 'memory'];
  args.push('--log-level', 'debug', '--plugins', PLUGINS, '--transports', 'http');
  args.push('--rpc-bind', `${host}:${RPC_PORT}`, '--p2p-bind', options.listen ? `${host}:${P2P_PORT}` : '');
  // Proofs checked on the node's own thread, as in the in-process mode: fifty processes share two cores anyway.
  args.push('--max-peers', String(options.maxPeers), '--verify-workers', '0');
  for (const peer of options.addPeers) args.push('--add-peer', peer);
  const child: ChildProcess = spawn('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const top = { id: '', height: 0n };
  const log = options.logFile ? createWriteStream(options.logFile) : undefined;
  const tail: string[] = [];
  let ready = false;
  const started = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      log?.write(`${line}\n`);
      tail.push(line);
      if (tail.length > 20) tail.shift();
      if (!ready && line.includes('daemon RPC listening')) {
        ready = true;
        resolve();
      }
      const genesis = /chain at height 0, top ([0-9a-f]+)/.exec(line);
      if (genesis) top.id = genesis[1]!;
      for (const [pattern, event] of PATTERNS) {
        const match = pattern.exec(line);
        if (!match) continue;
        const happened = event(match, Date.parse(line.slice(0, 24)));
        if (happened.kind === 'block' && happened.main)
          Object.assign(top, { id: happened.id, height: happened.height });
        options.onEvent(happened);
      }
    });
    child.once('exit', (code, signal) => {
      if (!ready)
        reject(
          new Error(
            `the daemon in ${namespace} ended (${signal ?? code}) before its RPC listened:\n${tail.join('\n')}`,
          ),
        );
    });
  });
  await started;
  let id = 0;
  return {
    top,
    rpc: async <T>(method: string, params: Record<string, unknown> = {}): Promise<T> => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params });
      // Fifty daemons on two cores can be slow to accept: a failed connection is tried again a few times.
      for (let attempt = 1; ; attempt++) {
        let response: Response;
        try {
          response = await fetch(`http://${host}:${RPC_PORT}/json_rpc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
        } catch (error) {
          if (attempt >= RPC_ATTEMPTS) throw new Error(`${method} on ${host}: ${(error as Error).message}`);
          await new Promise((resolve) => setTimeout(resolve, 1000));
          continue;
        }
        const answer = (await response.json()) as { result?: T; error?: { message: string } };
        if (answer.error) throw new Error(`${method} on ${host}: ${answer.error.message}`);
        return answer.result as T;
      }
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
