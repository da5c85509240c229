/**
 * bin/umbra replaces itself with the Node that runs the CLI, whichever Node is first on PATH: the process a user or a
 * supervisor holds is the node, so SIGKILL frees its port at once and SIGTERM stops it cleanly. That Node runs with
 * V8's young generation capped, and the simulator with its malloc settings (docs/operations.md § Memory), unless the
 * environment gives them already. Seen from outside, through /proc of the very process that was spawned.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import t, { type Test } from 'tap';
import { UMBRA_VERSION } from '../../host/version.js';
import { REPO_ROOT, startCli, UMBRA_BIN, type RunningCli } from '../helpers/cli.js';

/** The CLI's entries the launcher chooses from: the bundle `make` builds, or the compiled modules when newer. */
const ENTRIES = [join(REPO_ROOT, 'dist', 'bundle', 'umbra.js'), join(REPO_ROOT, 'dist', 'cli', 'umbra.js')];
/**
 * The machine's own directories, without the project's Node in .node/bin: where their Node is older than 22, bin/umbra
 * has to find the project's itself.
 */
const MACHINE_PATH = '/usr/bin:/bin';
const LISTENING = /daemon RPC listening on http:\/\/127\.0\.0\.1:(\d+)/;
const linuxOnly = { skip: process.platform !== 'linux' && '/proc is Linux’s' };

const temporaryDir = (t: Test, prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** A testnet daemon on a memory store through bin/umbra, RPC on a free loopback port, nothing else listening. */
async function startDaemon(t: Test, env: NodeJS.ProcessEnv = {}): Promise<{ daemon: RunningCli; port: number }> {
  const dataDir = temporaryDir(t, 'umbra-launcher-');
  const daemon = startCli(
    [
      ...['daemon', '--testnet', '--store', 'memory', '--data-dir', dataDir],
      ...['--rpc-bind', '127.0.0.1:0', '--p2p-bind', '', '--getwork-bind', ''],
    ],
    { PATH: MACHINE_PATH, ...env },
  );
  t.teardown(() => {
    if (daemon.child.exitCode === null && daemon.child.signalCode === null) daemon.child.kill('SIGKILL');
  });
  const port = Number((await daemon.waitFor(LISTENING))[1]);
  return { daemon, port };
}

const commandLine = (pid: number): string[] => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
const environment = (pid: number): string[] => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');

/** Whether something accepts connections on the loopback port. */
const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

t.test('the spawned process is the node running the CLI, on a Node of 22 or newer', linuxOnly, async (t) => {
  const { daemon } = await startDaemon(t);
  const pid = daemon.child.pid!;
  const executable = readlinkSync(`/proc/${pid}/exe`);
  t.equal(basename(executable), 'node');
  const major = Number(/^v(\d+)\./.exec(execFileSync(executable, ['--version'], { encoding: 'utf8' }))?.[1]);
  t.ok(major >= 22, `runs on Node ${major}`);
  const args = commandLine(pid);
  t.ok(
    args.some((arg) => ENTRIES.includes(arg)),
    'its command line holds the CLI’s entry',
  );
  t.same(
    args.filter((arg) => arg.startsWith('--max-semi-space-size')),
    ['--max-semi-space-size=32'],
    'with the young generation a node under load needs',
  );
  t.ok(args.includes('--expose-gc'), 'and V8’s gc(), to give back what start-up grew');
  t.notOk(
    environment(pid).some((variable) => variable.startsWith('MALLOC_')),
    'the daemon keeps malloc’s defaults',
  );
});

t.test('SIGKILL to the spawned process frees the RPC port within a second', linuxOnly, async (t) => {
  const { daemon, port } = await startDaemon(t);
  t.ok(await listening(port), 'the RPC port is open');
  daemon.child.kill('SIGKILL');
  const deadline = Date.now() + 1000;
  while ((await listening(port)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  t.notOk(await listening(port), 'the RPC port is closed');
  await daemon.exited;
  t.equal(daemon.child.signalCode, 'SIGKILL');
});

t.test('SIGTERM to the spawned process stops the node cleanly', linuxOnly, async (t) => {
  const { daemon, port } = await startDaemon(t);
  daemon.child.kill('SIGTERM');
  t.equal(await daemon.exited, 0, 'exit code 0');
  t.match(daemon.log(), /SIGTERM received: stopping[\s\S]*\] stopped\n/);
  t.notOk(await listening(port), 'the RPC port is closed');
});

t.test('a cap given in NODE_OPTIONS is left as it is', linuxOnly, async (t) => {
  const { daemon } = await startDaemon(t, { NODE_OPTIONS: '--max-semi-space-size=8' });
  t.same(
    commandLine(daemon.child.pid!).filter((arg) => arg.startsWith('--max-semi-space-size')),
    [],
    'no cap of its own on the command line',
  );
});

t.test(
  'the simulator runs with malloc’s settings (a given one left as it is) and a small young generation',
  linuxOnly,
  async (t) => {
    const simulator = startCli(
      ['simulator', '--wallets', '0', '--rpc-bind', '127.0.0.1:0', '--wallet-rpc-port-base', '0'],
      { PATH: MACHINE_PATH, MALLOC_ARENA_MAX: '4' },
    );
    t.teardown(() => simulator.child.kill('SIGKILL'));
    await simulator.waitFor(/daemon RPC http:\/\/127\.0\.0\.1:\d+/);
    const malloc = environment(simulator.child.pid!).filter((variable) => variable.startsWith('MALLOC_'));
    t.same(malloc.sort(), ['MALLOC_ARENA_MAX=4', 'MALLOC_TRIM_THRESHOLD_=131072']);
    t.same(
      commandLine(simulator.child.pid!).filter((arg) => arg.startsWith('--max-semi-space-size')),
      ['--max-semi-space-size=4'],
      'the simulator’s young generation capped small',
    );
    t.notOk(commandLine(simulator.child.pid!).includes('--expose-gc'), 'no gc() of its own');
    simulator.child.kill('SIGTERM');
    t.equal(await simulator.exited, 0);
  },
);

t.test('started through a chain of symlinks (an npm bin link), it finds the project', async (t) => {
  const dir = temporaryDir(t, 'umbra-launcher-links-');
  mkdirSync(join(dir, 'a'));
  mkdirSync(join(dir, 'b'));
  symlinkSync(UMBRA_BIN, join(dir, 'a', 'umbra'));
  symlinkSync(join('..', 'a', 'umbra'), join(dir, 'b', 'umbra'));
  const version = execFileSync(join(dir, 'b', 'umbra'), ['--version'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH: MACHINE_PATH },
  });
  t.equal(version.trim(), UMBRA_VERSION);
});

t.test('it runs the bundle, or the compiled modules when they were compiled after it', async (t) => {
  const root = temporaryDir(t, 'umbra-launcher-entry-');
  mkdirSync(join(root, 'bin'));
  copyFileSync(UMBRA_BIN, join(root, 'bin', 'umbra'));
  const entry = (dir: string, modified: number): void => {
    mkdirSync(join(root, 'dist', dir), { recursive: true });
    writeFileSync(join(root, 'dist', dir, 'umbra.js'), `console.log('${dir}')`);
    utimesSync(join(root, 'dist', dir, 'umbra.js'), modified, modified);
  };
  const ran = (): string =>
    execFileSync(join(root, 'bin', 'umbra'), [], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${MACHINE_PATH}` },
    }).trim();
  const now = Date.now() / 1000;
  entry('cli', now - 60);
  entry('bundle', now);
  t.equal(ran(), 'bundle');
  entry('cli', now + 60);
  t.equal(ran(), 'cli');
});

t.test('a checkout it cannot run says what to do, in one line', async (t) => {
  const root = temporaryDir(t, 'umbra-launcher-checkout-');
  const launcher = join(root, 'bin', 'umbra');
  mkdirSync(join(root, 'bin'));
  copyFileSync(UMBRA_BIN, launcher);
  const run = (path: string): { status: number | null; stderr: string } => {
    const { status, stderr } = spawnSync(launcher, ['--version'], {
      encoding: 'utf8',
      env: { ...process.env, PATH: path },
    });
    return { status, stderr };
  };

  t.same(run(MACHINE_PATH), { status: 1, stderr: `umbra: not built yet — run \`make\` in ${root} first\n` });

  mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
  writeFileSync(join(root, 'dist', 'cli', 'umbra.js'), '');
  const oldNode = join(root, 'old-node');
  mkdirSync(oldNode);
  writeFileSync(join(oldNode, 'node'), '#!/bin/sh\necho v20.11.0\n');
  chmodSync(join(oldNode, 'node'), 0o755);
  t.same(run(`${oldNode}:${MACHINE_PATH}`), {
    status: 1,
    stderr: `umbra: Node v20.11.0 is older than 22: run \`make\` in ${root} to install the project's Node into .node/\n`,
  });

  // A PATH with the one tool the launcher uses, and no Node.
  const noNode = join(root, 'no-node');
  mkdirSync(noNode);
  symlinkSync(execFileSync('sh', ['-c', 'command -v dirname'], { encoding: 'utf8' }).trim(), join(noNode, 'dirname'));
  t.same(run(noNode), { status: 1, stderr: 'umbra: no Node.js on PATH: install Node.js 22 or newer\n' });
});
