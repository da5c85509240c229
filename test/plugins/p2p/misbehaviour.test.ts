/**
 * Peers that break the protocol are banned while the honest ones keep going: garbage bytes, an oversized frame, an
 * invalid block, a junk orphan, a flood of messages; a peer's announcements open a bounded number of requests.
 * Handshakes from another chain are refused with the reason (another network does not even get a stream), without a
 * ban; a peer's orphans fill no more than its share of the orphan pool.
 */
import { randomBytes } from 'node:crypto';
import t, { type Test } from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { decodeBlock, encodeBlock } from '../../../protocol/block.js';
import { pastOf } from '../../../protocol/miniblock.js';
import { finalKeyHash } from '../../../protocol/chain/block-checks.js';
import type { Chain } from '../../../plugins/consensus/chain.js';
import { MAX_ORPHANS_PER_SOURCE } from '../../../plugins/consensus/orphan-pool.js';
import { MAX_BLOCK_FETCHES_PER_PEER } from '../../../plugins/p2p/block-relay.js';
import { MAX_TX_FETCHES_PER_PEER } from '../../../plugins/p2p/tx-relay.js';
import { encodeMessage } from '../../../plugins/p2p/wire/codec.js';
import { encodeFrame } from '../../../plugins/p2p/wire/frame.js';
import { MESSAGES, PROTOCOL_VERSION } from '../../../plugins/p2p/wire/messages.js';
import { mineBlock, openTestChain } from '../../helpers/chain.js';
import { converged, mine, startNode, waitUntil, type TestNode } from '../../helpers/p2p.js';
import { rawPeer, type RawPeer } from '../../helpers/raw-peer.js';

const core = await loadCore();

/** A raw peer that completed the handshake with `node` (it copies the node's chain identity). */
async function handshaken(node: TestNode, localAddress: string): Promise<RawPeer> {
  const peer = await rawPeer(node.p2p.port, localAddress);
  const { body } = await peer.next('hello');
  peer.send('hello', { ...body, nodeId: randomBytes(16), port: 0 });
  await waitUntil(
    'the node accepts the raw peer',
    () => node.p2p.peers().length > 0 && node.p2p.peers().some((p) => p.host === localAddress),
  );
  return peer;
}

async function expectBanned(
  t: Test,
  node: TestNode,
  peer: RawPeer,
  localAddress: string,
  reason: RegExp,
): Promise<void> {
  await waitUntil(`${localAddress} is disconnected`, peer.closed);
  t.ok(
    node.logLines.some((line) => line.includes(`banned ${localAddress}`) && reason.test(line)),
    `ban logged with its reason (${reason})`,
  );
  const again = await rawPeer(node.p2p.port, localAddress);
  await waitUntil('the reconnection is cut', again.closed);
  t.equal(again.received.length, 0, 'a banned address gets no handshake');
}

t.test('garbage, an oversized frame and an invalid block get the sender banned; honest peers carry on', async (t) => {
  const victim = await startNode('victim', {}, t);
  const honest = await startNode('honest', { addPeers: [victim.address] }, t);
  await waitUntil('honest is connected', () => victim.p2p.peers().length === 1);

  const garbage = await rawPeer(victim.p2p.port, '127.0.0.11');
  await garbage.next('hello');
  garbage.write(encodeFrame(MESSAGES.ping.kind, Buffer.from('this is not CBOR at all \xff\xff')));
  await expectBanned(t, victim, garbage, '127.0.0.11', /ping is not valid CBOR/);

  const noise = await rawPeer(victim.p2p.port, '127.0.0.12');
  noise.write(randomBytes(64).fill(0xee, 4, 5));
  await expectBanned(t, victim, noise, '127.0.0.12', /unknown message kind 238/);

  const oversized = await rawPeer(victim.p2p.port, '127.0.0.13');
  oversized.write(Buffer.from([0x7f, 0xff, 0xff, 0xff, MESSAGES.hello.kind]));
  await expectBanned(t, victim, oversized, '127.0.0.13', /frame of 2147483647 bytes exceeds the 65536-byte limit/);

  // A block whose final miniblock no longer commits to it: well-formed, hashed right, invalid.
  const elsewhere = await startNode('elsewhere', {}, t);
  await mine(elsewhere);
  const block = decodeBlock(elsewhere.chain.blockBytes(elsewhere.chain.top.id)!);
  block.stateRoot = new Uint8Array(32).fill(9);
  const bad = encodeBlock(block);
  const id = core.sha3_256(bad);
  const liar = await handshaken(victim, '127.0.0.14');
  liar.send('newBlock', { id, height: 1, work: 10n });
  const request = await liar.next('getBlocks');
  liar.send('blocks', { request: request.body.request, blocks: [{ block: bad, txs: [] }] });
  await expectBanned(t, victim, liar, '127.0.0.14', /sent invalid block [0-9a-f]{64}: /);

  t.equal(victim.chain.top.height, 0n, 'the invalid block changed nothing');
  t.equal(victim.p2p.peers().length, 1, 'the honest peer is still connected');
  await mine(honest, 2);
  await waitUntil('the victim follows the honest peer', () => converged(victim, honest));
  t.equal(victim.chain.top.height, 2n);
});

t.test('a peer flooding messages past its budget is banned while an honest peer keeps syncing', async (t) => {
  const victim = await startNode('victim', {}, t);
  const honest = await startNode('honest', { addPeers: [victim.address] }, t);
  await waitUntil('honest is connected', () => victim.p2p.peers().length === 1);
  const flooder = await handshaken(victim, '127.0.0.15');
  // Far more pings at once than the control budget's burst: each one past it adds ban points.
  const ping = encodeMessage('ping', { nonce: 1 });
  flooder.write(Buffer.concat(Array.from({ length: 5_000 }, () => ping)));
  await expectBanned(t, victim, flooder, '127.0.0.15', /sends control messages faster than allowed/);
  t.equal(victim.p2p.peers().length, 1, 'the honest peer is still connected');
  await mine(honest, 3);
  await waitUntil('the victim follows the honest peer', () => converged(victim, honest));
  t.equal(victim.chain.top.height, 3n);
});

t.test("a peer's announcements open a bounded number of requests with it", async (t) => {
  const node = await startNode('node', {}, t);
  const announcer = await handshaken(node, '127.0.0.16');
  // It announces blocks and transactions and answers nothing: each open request holds state on the node.
  for (let i = 0; i < 3 * MAX_BLOCK_FETCHES_PER_PEER; i++)
    announcer.send('newBlock', { id: randomBytes(32), height: 1, work: 10n });
  for (let i = 0; i < 3 * MAX_TX_FETCHES_PER_PEER; i++)
    announcer.send('newTxs', { ids: Array.from({ length: 4 }, () => randomBytes(32)) });
  const count = (type: string): number => announcer.received.filter((m) => m.type === type).length;
  await waitUntil(
    'the capped requests are out',
    () => count('getBlocks') === MAX_BLOCK_FETCHES_PER_PEER && count('getTxs') === MAX_TX_FETCHES_PER_PEER,
  );
  // A ping round trip later, nothing more has been asked.
  announcer.send('ping', { nonce: 7 });
  await waitUntil('the pong', () => announcer.received.some((m) => m.type === 'pong' && m.body.nonce === 7));
  t.equal(count('getBlocks'), MAX_BLOCK_FETCHES_PER_PEER, 'block fetches capped');
  t.equal(count('getTxs'), MAX_TX_FETCHES_PER_PEER, 'transaction fetches capped');
});

t.test('a handshake from another network or genesis is refused with the reason, and nobody is banned', async (t) => {
  const node = await startNode('node', {}, t);
  const stranger = await rawPeer(node.p2p.port, '127.0.0.21');
  const { body } = await stranger.next('hello');
  stranger.send('hello', { ...body, genesis: new Uint8Array(32).fill(1), nodeId: randomBytes(16) });
  const goodbye = await stranger.next('goodbye');
  t.match(goodbye.body.reason, /^refused: genesis 0101.* this node's is [0-9a-f]{64}$/);
  await waitUntil('the stranger is disconnected', stranger.closed);
  t.ok(
    node.logLines.some((line) => /refused peer 127\.0\.0\.21:\d+: genesis/.test(line)),
    'logged with the reason',
  );

  // A node of another network speaks another stream protocol (/umbra/<network>/<version>): the stream is never opened.
  const testnet = await startNode('testnet', { network: 'testnet' }, t);
  await t.rejects(node.p2p.connect(testnet.address), `does not speak /umbra/simulator/${PROTOCOL_VERSION}`);
  const refused = await rawPeer(node.p2p.port, '127.0.0.22', 'testnet');
  await waitUntil('the testnet client gets no stream', refused.closed);
  t.equal(refused.received.length, 0);
  t.equal(node.p2p.peers().length, 0);
  t.notOk(
    [...node.logLines, ...testnet.logLines].some((line) => /banned/.test(line)),
    'nobody was banned',
  );

  const version = await rawPeer(node.p2p.port, '127.0.0.21');
  version.send('hello', { ...body, version: 99, nodeId: randomBytes(16) });
  t.match(
    (await version.next('goodbye')).body.reason,
    `refused: protocol version 99, this node speaks ${PROTOCOL_VERSION}`,
  );
});

t.test('a message before the handshake counts against the sender', async (t) => {
  const node = await startNode('node', {}, t);
  const rude = await rawPeer(node.p2p.port, '127.0.0.31');
  rude.send('getPeers', {});
  t.match((await rude.next('goodbye')).body.reason, 'getPeers before the handshake');
  await waitUntil('disconnected', rude.closed);
});

t.test('blocks from a clock running ahead are held, or left out when far ahead, and never punished', async (t) => {
  const node = await startNode('node', {}, t);
  const peer = await handshaken(node, '127.0.0.51');
  /** Mines block 1 on a chain whose clock runs `aheadMs` ahead, and offers it to the node. */
  const offer = async (aheadMs: number): Promise<Uint8Array> => {
    const elsewhere = await openTestChain({ core });
    elsewhere.clock.now = BigInt(Date.now() + aheadMs) - 18_000n; // mineBlock moves the clock 18 s on first
    const id = Buffer.from(await mineBlock(elsewhere), 'hex');
    peer.received.length = 0;
    peer.send('newBlock', { id, height: 1, work: 10n });
    const request = await peer.next('getBlocks');
    peer.send('blocks', {
      request: request.body.request,
      blocks: [{ block: elsewhere.chain.blockBytes(id)!, txs: [] }],
    });
    return id;
  };
  const soon = await offer(1500);
  await waitUntil('the block 1.5 s ahead is taken once its time comes', () => node.chain.top.height === 1n);
  t.same(node.chain.top.id, soon);
  const far = await offer(60_000);
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.notOk(node.chain.meta(far), 'the block a minute ahead is left out');
  t.notOk(peer.closed(), 'the peer is still connected');
  t.notOk(
    node.logLines.some((line) => /banned/.test(line)),
    'and not banned',
  );
});

t.test(
  "a peer's orphans take at most its share of the pool; junk orphans get it banned and are not kept",
  async (t) => {
    const node = await startNode('node', {}, t);
    const chain = node.chain as Chain;
    const peer = await handshaken(node, '127.0.0.61');
    const elsewhere = await openTestChain({ core });
    await mineBlock(elsewhere);
    const template = decodeBlock(elsewhere.chain.blockBytes(elsewhere.chain.top.id)!);
    /** Offers `bytes` as the next block, as a peer announcing it would. */
    const offer = async (bytes: Uint8Array): Promise<void> => {
      peer.received.length = 0;
      peer.send('newBlock', { id: core.sha3_256(bytes), height: 1, work: 0n });
      const request = await peer.next('getBlocks');
      peer.send('blocks', { request: request.body.request, blocks: [{ block: bytes, txs: [] }] });
    };

    // Blocks of a fork this node has not seen: each names an unknown tip and is valid without it (the simulator checks
    // no proof of work), so each is kept, until the peer's share is full and its oldest give way.
    for (let n = 0; n < MAX_ORPHANS_PER_SOURCE + 8; n++) {
      const tip = randomBytes(32);
      const past: [number, number] = [pastOf(tip), 0];
      const block = { ...template, tips: [tip], miniblocks: template.miniblocks.map((mb) => ({ ...mb, past })) };
      block.miniblocks[9] = { ...block.miniblocks[9]!, keyHash: finalKeyHash(core, block) };
      await offer(encodeBlock(block));
      await waitUntil(`orphan ${n} is taken`, () => chain.orphanBlocks === Math.min(n + 1, MAX_ORPHANS_PER_SOURCE));
    }
    t.equal(chain.orphanBlocks, MAX_ORPHANS_PER_SOURCE, "the peer's share is full, no more");
    t.notOk(peer.closed(), 'orphans that pass every check without their parent are no misbehaviour');

    // An orphan whose miniblocks were mined on another tip fails a check that needs no parent.
    await offer(encodeBlock({ ...template, tips: [randomBytes(32)] }));
    await expectBanned(
      t,
      node,
      peer,
      '127.0.0.61',
      /sent invalid block [0-9a-f]{64}: miniblock 0 was mined on another tip/,
    );
    t.equal(chain.orphanBlocks, MAX_ORPHANS_PER_SOURCE, 'and it is not kept');
    t.equal(node.chain.top.height, 0n);
  },
);
