/**
 * A fresh node fast-syncs: it checks the header chain, fetches the states of the snapshot blocks proven chunk by
 * chunk, and executes the blocks after them; it ends on the same top and state root as its peers, answers like an
 * archive node from its history floor on, and names the floor for blocks below it. Peers that serve a tampered chunk
 * or a broken header chain are banned while the sync completes from honest peers.
 */
import t from 'tap';
import { encodeAddress } from '../../../protocol/address.js';
import { decodeBlock, encodeBlock } from '../../../protocol/block.js';
import { equalBytes, toHex } from '../../../protocol/bytes.js';
import { STABLE_DEPTH, TX_VALIDITY_BLOCKS } from '../../../protocol/chain-params.js';
import { NAME_SERVICE_SCID } from '../../../protocol/name-service.js';
import { premineKey } from '../../../protocol/premine.js';
import { rpcCall } from '../../helpers/app.js';
import { converged, mine, rpcUrl, startNode, waitUntil } from '../../helpers/p2p.js';
import { servingPeer } from '../../helpers/serving-peer.js';

const HEIGHT = 60n;
const FLOOR = HEIGHT - STABLE_DEPTH + 2n - TX_VALIDITY_BLOCKS;
const FAST = { fastSyncMinHeight: 16 };

t.test(
  'a fresh node fast-syncs to the same top and state, and answers like an archive node from its floor',
  async (t) => {
    const a = await startNode('a', { transports: ['http'] }, t);
    await mine(a, Number(HEIGHT));
    const fresh = await startNode('fresh', { ...FAST, addPeers: [a.address], transports: ['http'] }, t);
    await waitUntil('the fresh node has caught up', () => converged(a, fresh), 60_000);
    t.equal(toHex(fresh.chain.top.stateRoot), toHex(a.chain.top.stateRoot), 'same state root');
    t.equal(fresh.chain.top.cumulativeWork, a.chain.top.cumulativeWork, 'same cumulative work');
    const snapshots = fresh.app.container.cradle.snapshots;
    t.equal(snapshots.historyFloor(), FLOOR, 'the history floor is the first block whose state it fetched');
    t.notOk(fresh.chain.metaAtTopo(FLOOR - 1n), 'no block below the floor');
    let marks = 0;
    for await (const _ of fresh.app.container.cradle.store.entries({ prefix: new TextEncoder().encode('sC') })) marks++;
    t.equal(marks, 0, 'the import marks are gone once the snapshot is adopted');
    t.ok(
      fresh.logLines.some((line) => /fast sync done/.test(line)),
      'it fast-synced',
    );
    await mine(a, 3);
    await waitUntil('the fresh node follows new blocks', () => converged(a, fresh));

    const address = encodeAddress('simulator', premineKey(fresh.app.container.cradle.core, 'simulator'));
    const both = async (method: string, params: unknown) =>
      Promise.all([rpcCall(rpcUrl(a), method, params), rpcCall(rpcUrl(fresh), method, params)]);
    for (const topoheight of [Number(FLOOR), Number(FLOOR) + 5, -1]) {
      const [archive, synced] = await both('NODE.GetEncryptedBalance', { address, topoheight });
      // An account registered before the floor: the fast-synced node can name no earlier topoheight than its floor.
      t.same(
        { ...synced, registration: archive.registration },
        archive,
        `GetEncryptedBalance at topoheight ${topoheight}`,
      );
      t.equal(synced.registration, Number(FLOOR), 'registered at or before the floor');
      const [archiveSc, syncedSc] = await both('NODE.GetSC', {
        scid: toHex(NAME_SERVICE_SCID),
        code: true,
        variables: true,
        topoheight,
      });
      t.same(syncedSc, archiveSc, `GetSC of the name service at topoheight ${topoheight}`);
    }
    const names = await Promise.allSettled([
      rpcCall(rpcUrl(a), 'NODE.NameToAddress', { name: 'nobody-here' }),
      rpcCall(rpcUrl(fresh), 'NODE.NameToAddress', { name: 'nobody-here' }),
    ]);
    t.same(
      names.map((n) => (n.status === 'fulfilled' ? n.value : (n.reason as Error).message)),
      names.map(() => (names[0]!.status === 'fulfilled' ? names[0]!.value : (names[0]!.reason as Error).message)),
      'NameToAddress answers alike',
    );
    await t.rejects(
      rpcCall(rpcUrl(fresh), 'NODE.GetBlockHeaderByTopoHeight', { topoheight: Number(FLOOR) - 1 }),
      { message: new RegExp(`from topoheight ${FLOOR} on`) },
      'a block below the floor: an error naming the floor',
    );
    await t.rejects(rpcCall(rpcUrl(fresh), 'NODE.GetBlock', { height: 1 }), {
      message: new RegExp(`from topoheight ${FLOOR} on`),
    });
    const info = await rpcCall(rpcUrl(fresh), 'NODE.GetInfo');
    t.equal(info.topoheight, Number(HEIGHT) + 3, 'GetInfo works on a fast-synced node');
    t.equal(info.fast_sync, null, 'and reports no fast sync once it is over');
  },
);

t.test('--full-sync replays from genesis', async (t) => {
  const a = await startNode('a', {}, t);
  await mine(a, Number(HEIGHT));
  const full = await startNode('full', { ...FAST, fullSync: true, addPeers: [a.address] }, t);
  await waitUntil('the full node has caught up', () => converged(a, full), 60_000);
  t.ok(full.chain.metaAtTopo(1n), 'it holds every block');
  t.equal(full.app.container.cradle.snapshots.historyFloor(), 0n);
  t.notOk(full.logLines.some((line) => /fast sync/.test(line)));
});

t.test('a peer serving tampered chunks is banned, and the sync completes from an honest peer', async (t) => {
  const a = await startNode('a', {}, t);
  await mine(a, Number(HEIGHT));
  const fresh = await startNode('fresh', FAST, t);
  const liar = await servingPeer(fresh.p2p.port, a, '127.0.0.2', t, {
    chunk: (chunk) =>
      chunk.leaves.length > 0
        ? {
            ...chunk,
            leaves: chunk.leaves.map((leaf) => ({ key: leaf.key, value: Uint8Array.from(leaf.value).reverse() })),
          }
        : { ...chunk, path: chunk.path.map((node) => Uint8Array.from(node).reverse()) },
  });
  await waitUntil('the liar served a chunk', () => liar.served.length > 0);
  await fresh.p2p.connect(a.address);
  await waitUntil('the fresh node has caught up', () => converged(a, fresh), 60_000);
  t.ok(
    fresh.logLines.some((line) => /banned 127\.0\.0\.2 .*state chunk that does not prove/.test(line)),
    'the liar is banned for its chunk',
  );
  t.ok(liar.peer.closed(), 'and cut off');
  t.equal(toHex(fresh.chain.top.stateRoot), toHex(a.chain.top.stateRoot), 'the state is the honest one');
});

t.test('a peer serving a broken header chain is banned, and the sync completes from an honest peer', async (t) => {
  const a = await startNode('a', {}, t);
  await mine(a, Number(HEIGHT));
  const fresh = await startNode('fresh', FAST, t);
  // It claims the most work, so the fresh node checks its header chain first; block 7's miniblocks are broken.
  const liar = await servingPeer(fresh.p2p.port, a, '127.0.0.3', t, {
    extraWork: 1n,
    header: (bytes) => {
      const block = decodeBlock(bytes);
      if (block.height !== 7n) return bytes;
      block.miniblocks[2] = block.miniblocks[1]!;
      return encodeBlock(block);
    },
  });
  await fresh.p2p.connect(a.address);
  await waitUntil('the fresh node has caught up', () => converged(a, fresh), 60_000);
  t.ok(
    fresh.logLines.some((line) => /banned 127\.0\.0\.3 .*header chain that fails its checks/.test(line)),
    'the liar is banned for its headers',
  );
  t.ok(liar.peer.closed(), 'and cut off');
  t.ok(equalBytes(fresh.chain.top.id, a.chain.top.id));
});
