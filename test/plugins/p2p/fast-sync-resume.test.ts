/**
 * A fast sync killed (SIGKILL) during its state phase resumes after a restart: it does not check the header chain
 * again, nor fetch again the state chunks it had stored, and it ends on the honest chain's top and state.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { toHex } from '../../../protocol/bytes.js';
import { rpcCall } from '../../helpers/app.js';
import { daemonArgs, startCli, type RunningCli } from '../../helpers/cli.js';
import { mine, startNode, waitUntil } from '../../helpers/p2p.js';
import { servingPeer } from '../../helpers/serving-peer.js';

async function daemon(dataDir: string, config: string): Promise<{ cli: RunningCli; port: number; rpc: string }> {
  const cli = startCli(daemonArgs('simulator', dataDir, '--config', config));
  const [, port] = await cli.waitFor(/P2P listening on 127\.0\.0\.1:(\d+)/, 60_000);
  const [, rpc] = await cli.waitFor(/(http:\/\/127\.0\.0\.1:\d+)\/json_rpc/, 60_000);
  return { cli, port: Number(port), rpc: rpc! };
}

t.test('a fast sync killed in its state phase resumes where it stopped', async (t) => {
  const a = await startNode('a', {}, t);
  await mine(a, 60);
  const dataDir = mkdtempSync(join(tmpdir(), 'umbra-fast-resume-'));
  const config = join(dataDir, 'config.json');
  writeFileSync(config, JSON.stringify({ fastSyncMinHeight: 16 }));

  const first = await daemon(dataDir, config);
  t.teardown(() => first.cli.child.kill('SIGKILL'));
  // One leaf per chunk, and silence after a few: the sync is caught in its state phase.
  const before = await servingPeer(first.port, a, '127.0.0.4', t, { chunkLeaves: 1, answerChunks: 30 });
  await waitUntil('thirty chunks were served', () => before.served.length === 30, 60_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  first.cli.child.kill('SIGKILL');
  await first.cli.exited;
  const stored = before.served.filter((chunk) => chunk.named && !chunk.split).map((chunk) => chunk.key);
  t.ok(stored.length > 0, `named-trie chunks were stored before the kill (${stored.length})`);

  const second = await daemon(dataDir, config);
  t.teardown(() => second.cli.child.kill('SIGKILL'));
  const after = await servingPeer(second.port, a, '127.0.0.5', t, { chunkLeaves: 1 });
  await second.cli.waitFor(/fast sync: resuming at the state of blocks/, 30_000);
  await waitUntil('the restarted node reaches the top', () => /fast sync done/.test(second.cli.log()), 60_000).catch(
    (error: Error) => {
      t.comment(second.cli.log().slice(-3000));
      throw error;
    },
  );
  t.equal(after.headerRequests(), 0, 'the header chain is not checked again');
  const again = after.served.filter((chunk) => stored.includes(chunk.key));
  t.same(again, [], 'no stored chunk is fetched again');
  const info = await waitForTop(second.rpc, Number(a.chain.top.height));
  t.equal(info.treehash, toHex(a.chain.top.stateRoot), 'the same state as the honest node');
});

async function waitForTop(rpc: string, height: number): Promise<{ treehash: string }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const info = await rpcCall(rpc, 'NODE.GetInfo');
    if (info.topoheight === height || Date.now() > deadline) return info;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
