/**
 * `umbra status` against real daemons: the text view and its peers table, --json, the hash rate of a testnet chain
 * mined with proof of work (none on the simulator), an unreachable daemon, --watch on a pipe and on a terminal, and
 * with no daemon named the local daemon of whichever network answers.
 */
import { mkdtempSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { hashRateText } from '../../protocol/hash-rate.js';
import { rpcCall, startTestApp } from '../helpers/app.js';
import { mineSpaced } from '../helpers/chain.js';
import { runCli, startCli } from '../helpers/cli.js';
import { converged, mine, rpcUrl, startNode, waitUntil } from '../helpers/p2p.js';
import { startPtyCli } from '../helpers/pty.js';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

t.test('text: aligned fields of a synced daemon without peers', async (t) => {
  const { url } = await startTestApp(t);
  const { code, stdout, stderr } = await runCli(['status', '--daemon-address', url]);
  t.equal(code, 0, stderr);
  t.equal(stderr, '');
  t.match(stdout, new RegExp(`^daemon: +${url}/json_rpc$`, 'm'));
  t.match(stdout, /^network: +testnet$/m);
  t.match(stdout, /^version: +\d+\.\d+\.\d+/m);
  t.match(stdout, /^uptime: +\d+ s$/m);
  t.match(stdout, /^height: +0 \(topoheight 0, stable 0\)$/m);
  t.match(stdout, /^sync: +synced, 0 \/ 0 blocks \(100\.0 %\)$/m);
  t.match(stdout, /^pool: +0 transactions$/m);
  t.match(stdout, /^difficulty: +\d+$/m);
  t.match(stdout, /^hash rate: +not known yet: it needs two blocks within the hour up to the top block$/m);
  t.match(stdout, /^peers: +0 \(0 incoming, 0 outgoing\)$/m);
  t.notMatch(stdout, /ADDRESS/, 'no peers table without peers');
  // Where each value starts: the end of `label:` and the spaces after it.
  const valueColumns = new Set(
    stdout
      .trimEnd()
      .split('\n')
      .map((line) => /^[a-z ]+: +/.exec(line)![0].length),
  );
  t.equal(valueColumns.size, 1, 'every value starts in the same column');
});

t.test('text and --json with a peer: the peers table and its figures', async (t) => {
  const a = await startNode('a', { transports: ['http'] }, t);
  await mine(a, 3);
  const b = await startNode('b', { transports: ['http'], addPeers: [a.address] }, t);
  await waitUntil('b has caught up', () => converged(a, b));
  await waitUntil('b has measured its peer’s latency', () => b.p2p.peers()[0]?.latencyMs !== undefined);

  const text = await runCli(['status', '--daemon-address', rpcUrl(b)]);
  t.equal(text.code, 0, text.stderr);
  t.match(text.stdout, /^sync: +synced, 3 \/ 3 blocks \(100\.0 %\)$/m);
  t.match(text.stdout, /^peers: +1 \(0 incoming, 1 outgoing\)$/m);
  t.notMatch(text.stdout, /hash rate/, 'the simulator mines on demand: no hash rate');
  t.match(text.stdout, /^ADDRESS +DIRECTION +HEIGHT +LATENCY +CONNECTED$/m);
  t.match(text.stdout, new RegExp(`^${a.address.replaceAll('.', '\\.')} +outgoing +3 +\\d+ ms +\\d+ s$`, 'm'));

  const json = await runCli(['status', '--daemon-address', rpcUrl(b), '--json']);
  t.equal(json.code, 0, json.stderr);
  const status = JSON.parse(json.stdout);
  t.equal(status.network, 'simulator');
  t.equal(status.height, 3);
  t.equal(status.topoheight, 3);
  t.same(status.sync, { target_height: 3, percent: 100, synced: true, blocks_per_second: null, eta_seconds: 0 });
  t.equal(status.pool_transactions, 0);
  t.equal(typeof status.uptime_seconds, 'number');
  t.equal(status.network_hashrate, null);
  t.equal(status.peers.length, 1);
  t.match(status.peers[0], { address: a.address, direction: 'outgoing', height: 3, latency_ms: Number });
});

t.test(
  "the hash rate: the work of the last hour's miniblocks over the time it took, with the window said",
  async (t) => {
    const { app, url } = await startTestApp(t);
    // Blocks a second apart on the node's clock: the difficulty climbs block after block, so the next block's
    // difficulty over the mean block time (the old estimate) overstates the work the chain holds.
    await mineSpaced(app, 8, 1000n);
    const info = await rpcCall(url, 'NODE.GetInfo');
    const headers = await Promise.all(
      Array.from({ length: info.height }, (_, i) =>
        rpcCall(url, 'NODE.GetBlockHeaderByTopoHeight', { topoheight: i + 1 }).then((answer) => answer.block_header),
      ),
    );
    // Block 1 opens the span; the work of every later block was done within it.
    const work = headers.slice(1).reduce((sum, header) => sum + 18 * Number(header.difficulty), 0);
    const spanS = (headers.at(-1).timestamp - headers[0].timestamp) / 1000;
    const expected = Math.round((work / spanS) * 100) / 100;
    const oldEstimate = (18 * info.difficulty) / info.averageblocktime50;
    t.ok(
      Math.abs(oldEstimate - expected) > expected / 4,
      `the old estimate (${oldEstimate} H/s) was off (${expected} H/s)`,
    );

    const json = await runCli(['status', '--daemon-address', url, '--json']);
    t.equal(json.code, 0, json.stderr);
    t.equal(JSON.parse(json.stdout).network_hashrate, expected);
    const text = await runCli(['status', '--daemon-address', url]);
    t.match(
      text.stdout,
      new RegExp(
        `^hash rate: +${hashRateText(expected).replace('.', '\\.')} \\(accepted miniblocks' difficulty over the hour up to the top block\\)$`,
        'm',
      ),
    );
  },
);

t.test('an unreachable daemon: a clear error and exit 1, as text and as JSON', async (t) => {
  const port = await closedPort();
  const text = await runCli(['status', '--daemon-address', `127.0.0.1:${port}`]);
  t.equal(text.code, 1);
  t.equal(text.stdout, '');
  t.equal(
    text.stderr,
    `umbra: cannot reach the daemon at http://127.0.0.1:${port}/json_rpc: ECONNREFUSED; start the daemon, or name it with --daemon-address\n`,
  );
  const json = await runCli(['status', '--daemon-address', `127.0.0.1:${port}`, '--json']);
  t.equal(json.code, 1);
  t.equal(JSON.parse(json.stdout).error.code, 'cli.daemon-offline');
  t.equal(json.stderr, '');
});

t.test('bad flags are refused in our words', async (t) => {
  const interval = await runCli(['status', '--watch', '--interval', 'soon', '--json']);
  t.equal(interval.code, 1);
  t.same(JSON.parse(interval.stdout).error, {
    code: 'cli.bad-argument',
    message: '--interval must be seconds between 0.1 and 86400, got soon',
  });
  const lonely = await runCli(['status', '--interval', '5']);
  t.equal(lonely.code, 1);
  t.equal(lonely.stderr, 'umbra: --interval sets how often --watch refreshes: add --watch\n');
  const address = await runCli(['status', '--daemon-address', 'http://[nope', '--json']);
  t.equal(address.code, 1);
  t.equal(JSON.parse(address.stdout).error.code, 'daemon-client.bad-address');
});

t.test('--watch on a pipe prints one document per refresh until interrupted', async (t) => {
  const { url } = await startTestApp(t);
  const watch = startCli(['status', '--daemon-address', url, '--watch', '--interval', '0.2', '--json']);
  t.teardown(() => watch.child.kill('SIGKILL'));
  await watch.waitFor(/(\{"daemon".*\}\n){2}/);
  watch.child.kill('SIGINT');
  t.equal(await watch.exited, 0, 'Ctrl-C ends the watch cleanly');
  const documents = watch
    .log()
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.ok(documents.length >= 2, `${documents.length} documents, one per line`);
  t.ok(documents.every((document) => document.height === 0 && document.sync.synced));
  t.ok(documents[1].sampled_at > documents[0].sampled_at, 'each a fresh reading');

  const text = startCli(['status', '--daemon-address', url, '--watch', '--interval', '0.2']);
  t.teardown(() => text.child.kill('SIGKILL'));
  await text.waitFor(/(^peers: .*\n[\s\S]*){2}/m);
  text.child.kill('SIGTERM');
  t.equal(await text.exited, 0);
  t.match(text.log(), /^peers: .*\n\ndaemon: /m, 'text views a blank line apart');
});

t.test('--watch keeps trying an unreachable daemon and says so once', async (t) => {
  const port = await closedPort();
  const watch = startCli(['status', '--daemon-address', `127.0.0.1:${port}`, '--watch', '--interval', '0.1']);
  t.teardown(() => watch.child.kill('SIGKILL'));
  await watch.waitFor(/cannot reach the daemon .*ECONNREFUSED; retrying every 0\.1 s\n/);
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.equal(watch.child.exitCode, null, 'still running');
  t.equal(watch.log().match(/cannot reach/g)?.length, 1, 'said once, not on every attempt');
  watch.child.kill('SIGINT');
  t.equal(await watch.exited, 0);
});

t.test('Ctrl-C ends --watch at once: during a long interval, and while the daemon does not answer', async (t) => {
  const { url } = await startTestApp(t);
  const idle = startCli(['status', '--daemon-address', url, '--watch', '--interval', '3600']);
  t.teardown(() => idle.child.kill('SIGKILL'));
  await idle.waitFor(/^peers: /m);
  let asked = Date.now();
  idle.child.kill('SIGINT');
  t.equal(await idle.exited, 0);
  t.ok(Date.now() - asked < 5000, `exited ${Date.now() - asked} ms after Ctrl-C, not after the hour`);

  // A server that takes the connection and never answers.
  const sockets: Socket[] = [];
  const silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  });
  const port = (silent.address() as AddressInfo).port;
  const stuck = startCli(['status', '--daemon-address', `127.0.0.1:${port}`, '--watch']);
  t.teardown(() => stuck.child.kill('SIGKILL'));
  await waitUntil('the request is in flight', () => sockets.length > 0, 10_000);
  asked = Date.now();
  stuck.child.kill('SIGINT');
  t.equal(await stuck.exited, 0);
  t.ok(Date.now() - asked < 5000, `exited ${Date.now() - asked} ms after Ctrl-C, not after the request's timeout`);
});

t.test('--watch on a terminal redraws in place and stops on Ctrl-C', async (t) => {
  const { url } = await startTestApp(t);
  const pty = startPtyCli(['status', '--daemon-address', url, '--watch', '--interval', '0.2']);
  t.teardown(() => pty.kill());
  await pty.waitFor(/(uptime: [\s\S]*){2}/);
  await pty.type('\x03');
  const code = await pty.exited;
  t.equal(code, 0, code === 0 ? 'Ctrl-C ends the watch with 0' : `exit ${code}; screen:\n${pty.screen().slice(-2000)}`);
  t.notMatch(
    pty.screen(),
    /^peers: .*\n\ndaemon: /m,
    'no separator between views on a terminal: each replaces the last',
  );
});

/** Whether nothing listens on these loopback ports. */
async function allClosed(ports: number[]): Promise<boolean> {
  const open = await Promise.all(
    ports.map(
      (port) =>
        new Promise<boolean>((resolve) => {
          const socket = connect(port, '127.0.0.1');
          socket.once('connect', () => {
            socket.destroy();
            resolve(true);
          });
          socket.once('error', () => resolve(false));
        }),
    ),
  );
  return !open.includes(true);
}

// The test needs the default RPC ports for itself.
const defaultsBusy = !(await allClosed([10102, 40402, 20000])) && 'a default RPC port is in use on this machine';

t.test(
  'no daemon named: the local daemon of mainnet, testnet or the simulator, whichever answers',
  { skip: defaultsBusy },
  async (t) => {
    const none = await runCli(['status']);
    t.equal(none.code, 1);
    t.equal(
      none.stderr,
      "umbra: no local daemon answers: not mainnet's at 127.0.0.1:10102 (--network mainnet), testnet's at 127.0.0.1:40402 (--testnet) nor the simulator's at 127.0.0.1:20000 (--network simulator); start the daemon, or name it with --daemon-address\n",
    );

    const dataDir = mkdtempSync(join(tmpdir(), 'umbra-status-testnet-'));
    const daemon = startCli(
      ['daemon', '--testnet', '--data-dir', dataDir, '--store', 'memory', '--p2p-bind', '', '--getwork-bind', ''],
      { HOME: dataDir },
    );
    t.teardown(() => daemon.child.kill('SIGKILL'));
    // The daemon's banner comes before its plugins start: wait until the RPC server listens.
    await daemon.waitFor(/daemon RPC listening on http:\/\/127\.0\.0\.1:40402\//, 60_000);
    const found = await runCli(['status']);
    t.equal(found.code, 0, found.stderr);
    t.match(
      found.stdout,
      /^daemon: +http:\/\/127\.0\.0\.1:40402\/json_rpc$/m,
      "mainnet's port is shut: testnet's answers",
    );
    t.match(found.stdout, /^network: +testnet$/m);
    const json = JSON.parse((await runCli(['status', '--json'])).stdout);
    t.match(json, { daemon: 'http://127.0.0.1:40402/json_rpc', network: 'testnet' });
    const mainnet = await runCli(['status', '--network', 'mainnet']);
    t.equal(mainnet.code, 1, 'a network named is the one asked');
    t.match(mainnet.stderr, 'cannot reach the daemon at http://127.0.0.1:10102/json_rpc');
    daemon.child.kill('SIGINT');
    t.equal(await daemon.exited, 0);
  },
);
