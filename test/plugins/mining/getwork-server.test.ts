/**
 * The getwork server on a real daemon (simulator network: every blob is a solution, so submissions need no hashing):
 * a job at once and on every change, results with reasons, refusals, and every bad message closing only its own
 * connection.
 */
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import type { JobMessage, ResultMessage, ServerMessage } from '../../../host/mining/getwork-protocol.js';
import { encodeAddress } from '../../../protocol/address.js';
import { NETWORKS } from '../../../protocol/network.js';
import { premineKey } from '../../../protocol/premine.js';
import type { MiningService } from '../../../plugins/mining/mining-service.js';
import { rpcCall, startTestApp } from '../../helpers/app.js';
import { GetworkPeer, getworkPortIn } from '../../helpers/getwork.js';

const core = await loadCore();
const premine = encodeAddress('simulator', premineKey(core, 'simulator'));
const isJob = (message: ServerMessage): message is JobMessage => message.type === 'job';

async function startDaemon(t: Parameters<typeof startTestApp>[0]) {
  const daemon = await startTestApp(t, { network: 'simulator', getworkBind: '127.0.0.1:0' });
  const port = getworkPortIn(daemon.logLines.join('\n'));
  t.ok(port, 'the daemon logs its getwork port');
  const mining = daemon.app.container.cradle.mining as MiningService;
  const info = () => daemon.app.container.cradle.chainInfo.mining!();
  return { ...daemon, hostPort: `127.0.0.1:${port}`, mining, info };
}

t.test('a miner gets a job at once, its solutions are answered, and a new job follows every change', async (t) => {
  const { hostPort, info, app, url } = await startDaemon(t);
  const miner = await GetworkPeer.connect(hostPort, premine);
  const job = await miner.next<JobMessage>(isJob, 'first job');
  t.equal(job.height, 1);
  t.equal(job.final, false);
  t.equal(job.blob.length, 96, 'a 48-byte miniblock');
  t.equal(info().connected_miners, 1, 'GetInfo counts the miner');

  miner.send(JSON.stringify({ type: 'submit', job_id: job.job_id, blob: job.blob }));
  const accepted = await miner.next<ResultMessage>((m) => m.type === 'result', 'result');
  t.same(accepted, { type: 'result', job_id: job.job_id, accepted: true, block: false });
  const second = await miner.next<JobMessage>(
    (m) => isJob(m) && m.job_id !== job.job_id,
    'job after the pooled miniblock',
  );
  t.equal(second.height, 1, 'same height, one more miniblock pooled');

  // The same miniblock again: refused with the reason.
  miner.send(JSON.stringify({ type: 'submit', job_id: job.job_id, blob: job.blob }));
  const refused = await miner.next<ResultMessage>((m) => m.type === 'result' && !m.accepted, 'refusal');
  t.match(refused, { accepted: false, reason: /duplicate miniblock/ });

  // Mining the rest of the block: the final job, a found block, then a job at the next height.
  for (let count = 0; ; count++) {
    const current = miner.received.filter(isJob).at(-1) as JobMessage;
    miner.send(JSON.stringify({ type: 'submit', job_id: current.job_id, blob: current.blob }));
    const result = await miner.next<ResultMessage>(
      (m) => m.type === 'result' && m.job_id === current.job_id,
      `result of ${current.job_id}`,
    );
    if (result.accepted && result.block) break;
    await miner.next((m) => isJob(m) && m.job_id !== current.job_id, 'next job');
    t.ok(count < 20, 'the block completes');
  }
  const next = await miner.next<JobMessage>((m) => isJob(m) && m.height === 2, 'a job at height 2');
  t.equal(next.final, false);
  t.equal(Number(app.container.cradle.chain.top.height), 1);
  const figures = info();
  t.equal(figures.blocks_count, 1);
  t.equal(figures.miniblocks_accepted_count, 10, 'nine ordinary miniblocks and the final one');
  t.equal(figures.miniblocks_rejected_count, 1);
  const [listed] = app.container.cradle.miners.connected();
  t.match(listed, { address: premine, accepted: 10, rejected: 1, blocks: 1, share: 1 });
  // Operators see it: /metrics and the explorer's home page.
  const metrics = await (await fetch(`${url}/metrics`)).text();
  t.match(metrics, /^umbra_getwork_miners 1$/m);
  t.match(metrics, new RegExp(`^umbra_getwork_miner_share\\{address="${premine}"\\} 1$`, 'm'));
  t.match(metrics, new RegExp(`^umbra_getwork_miner_accepted\\{address="${premine}"\\} 10$`, 'm'));
  const home = await (await fetch(`${url}/explorer/`)).text();
  t.match(home, /Connected miners \(1\)/);
  t.match(
    home,
    new RegExp(
      `title="${premine}">[^<]+</a><button [^>]+>.*?</button></span></td><td data-label="Connected since">[^<]+</td><td data-label="Jobs">\\d+</td><td data-label="Accepted">10</td><td data-label="Rejected">1</td><td data-label="Blocks">1</td><td [^>]+>100.0 %</td>`,
    ),
  );
  miner.ws.close();
});

t.test('refusals and bad messages close that connection only, with the reason', async (t) => {
  const { hostPort, info } = await startDaemon(t);
  const { G } = core.generators(NETWORKS.simulator.generatorDomain);
  const stranger = encodeAddress('simulator', core.g1Compress(core.g1MulSecret(G, new Uint8Array(32).fill(7))));

  const unregistered = await GetworkPeer.connect(hostPort, stranger);
  t.match(await unregistered.closed, { code: 1008, reason: /address refused: the address is not registered/ });
  t.match(unregistered.received, [{ type: 'error', reason: /not registered/ }], 'the reason comes as a message too');
  const badAddress = await GetworkPeer.connect(hostPort, 'not-an-address');
  t.match(await badAddress.closed, { code: 1008, reason: /address refused/ });
  const noPath = await GetworkPeer.connect(hostPort, premine, '/');
  t.match(await noPath.closed, { code: 1008, reason: /connect to \/ws\// });

  const bystander = await GetworkPeer.connect(hostPort, premine);
  await bystander.next(isJob, 'bystander job');
  const cases: [string, string | Buffer, number, RegExp][] = [
    ['garbage', 'this is not json', 1003, /bad message/],
    ['another message type', JSON.stringify({ type: 'hello' }), 1003, /bad message/],
    ['a short blob', JSON.stringify({ type: 'submit', job_id: 'x', blob: 'abcd' }), 1003, /bad message/],
    ['a binary frame', Buffer.from([1, 2, 3]), 1003, /bad message/],
    ['an oversized message', 'x'.repeat(4096), 1009, /message of 4096 bytes: at most 1024/],
  ];
  for (const [what, data, code, reason] of cases) {
    const peer = await GetworkPeer.connect(hostPort, premine);
    await peer.next(isJob, 'job');
    peer.send(data);
    t.match(await peer.closed, { code, reason }, `${what}: closed with ${code}`);
  }
  t.equal(bystander.ws.readyState, bystander.ws.OPEN, 'the other connection is untouched');
  // The server sees each close a moment after the client does.
  while (info().connected_miners !== 1) await new Promise((resolve) => setTimeout(resolve, 20));
  t.pass('GetInfo counts the one miner left');

  // Past the burst, submissions close the connection (each still gets its answer until then).
  const flooder = await GetworkPeer.connect(hostPort, premine);
  const job = await flooder.next<JobMessage>(isJob, 'job');
  for (let i = 0; i < 60; i++) flooder.send(JSON.stringify({ type: 'submit', job_id: 'nope', blob: job.blob }));
  t.match(await flooder.closed, { code: 1008, reason: /too many submissions/ });
  t.match(
    flooder.received.find((m) => m.type === 'result'),
    { accepted: false, reason: /job nope not found/ },
  );
  t.equal(bystander.ws.readyState, bystander.ws.OPEN, 'still untouched');
  bystander.ws.close();
});

t.test('a busy getwork port costs the miners, not the node: a warning in words, no crash', async (t) => {
  const { hostPort } = await startDaemon(t);
  const second = await startTestApp(t, { network: 'simulator', getworkBind: hostPort });
  t.match(
    second.logLines.join('\n'),
    `getwork server not started: cannot listen on ${hostPort} for the getwork server: address already in use`,
  );
  t.ok(await rpcCall(second.url, 'NODE.GetInfo'), 'the daemon answers');
});
