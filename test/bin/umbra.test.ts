/**
 * bin/umbra runs the CLI in the same process again with V8's young generation capped (docs/operations.md § Memory),
 * unless the cap is given already. Seen from outside: the command line of the very process that was spawned.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { cliEnv, REPO_ROOT, UMBRA_BIN } from '../helpers/cli.js';

const DAEMON = ['daemon', '--network', 'simulator', '--store', 'memory', '--rpc-bind', '127.0.0.1:0'];

/** The young-generation flags on the command line of `node <nodeFlags> bin/umbra daemon …` once it serves RPC. */
async function capsOfRunningDaemon(nodeFlags: string[]): Promise<string[]> {
  const child = spawn(process.execPath, [...nodeFlags, UMBRA_BIN, ...DAEMON], { cwd: REPO_ROOT, env: cliEnv() });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    let log = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('daemon RPC listening')) resolve();
      });
      child.once('exit', () => reject(new Error(`the daemon exited: ${log}`)));
    });
    return readFileSync(`/proc/${child.pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((arg) => arg.startsWith('--max-semi-space-size'));
  } finally {
    child.kill('SIGINT');
    await exited;
  }
}

const linuxOnly = { skip: process.platform !== 'linux' && '/proc is Linux’s' };

t.test('the spawned process itself runs with the young generation capped at 4 MiB', linuxOnly, async (t) => {
  t.same(await capsOfRunningDaemon([]), ['--max-semi-space-size=4']);
});

t.test('a cap given to Node is left as it is', linuxOnly, async (t) => {
  t.same(await capsOfRunningDaemon(['--max-semi-space-size=8']), ['--max-semi-space-size=8']);
});
