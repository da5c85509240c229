/** Runs the real `bin/umbra` as a child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const UMBRA_BIN = join(REPO_ROOT, 'bin', 'umbra');

/**
 * The environment a user's shell would give the CLI, with `extra`: without the test runner's module loaders
 * (its NODE_OPTIONS).
 */
export const cliEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  return { ...env, ...extra };
};

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `umbra args...` to completion (optionally feeding stdin, with extra environment variables). */
export function runCli(
  args: string[],
  stdin?: string,
  timeoutMs = 60_000,
  env: NodeJS.ProcessEnv = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(UMBRA_BIN, args, {
      cwd: REPO_ROOT,
      env: cliEnv(env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin ?? '');
  });
}

export interface RunningCli {
  child: ChildProcess;
  /** Everything written to stderr so far (the log). */
  log(): string;
  /** Resolves with the first regex match in the log, or rejects on exit/timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Starts a long-running `umbra` command (a daemon) and lets a test watch its log (optionally with extra environment variables). */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): RunningCli {
  const child = spawn(UMBRA_BIN, args, {
    cwd: REPO_ROOT,
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters = new Set<() => void>();
  const onData = (d: Buffer): void => {
    output += d.toString();
    for (const waiter of waiters) waiter();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      for (const waiter of waiters) waiter();
      resolve(code);
    }),
  );
  return {
    child,
    log: () => output,
    exited,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${pattern}; log so far:\n${output}`));
        }, timeoutMs);
        const check = (): void => {
          const match = pattern.exec(output);
          if (match) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(match);
          } else if (child.exitCode !== null) {
            clearTimeout(timer);
            waiters.delete(check);
            reject(new Error(`process exited (${child.exitCode}) before ${pattern}; log:\n${output}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** The flags that point a wallet command at a wallet file, its password file and a daemon. */
export const walletFlags = (file: string, passwordFile: string, daemonAddress: string): string[] => [
  '--wallet-file',
  file,
  '--password-file',
  passwordFile,
  '--daemon-address',
  daemonAddress,
];

/** `umbra daemon` on `network` with its data in `dataDir`, RPC and P2P on free loopback ports, then `extra`. */
export const daemonArgs = (network: string, dataDir: string, ...extra: string[]): string[] => [
  'daemon',
  '--network',
  network,
  '--data-dir',
  dataDir,
  '--rpc-bind',
  '127.0.0.1:0',
  '--p2p-bind',
  '127.0.0.1:0',
  ...extra,
];
