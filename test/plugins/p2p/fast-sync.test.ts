/**
 * A fresh node fast-syncs: it checks the header chain, fetches the state of the snapshot blocks proven chunk by
 * chunk, and executes the blocks after them; it ends on the same top and state root as its peers, holding no block
 * below its history floor.
 */
import t from 'tap';
import { toHex } from '../../../host/protocol/bytes.js';
import { STABLE_DEPTH, TX_VALIDITY_BLOCKS } from '../../../host/protocol/chain-params.js';
import { converged, mine, startNode, waitUntil } from '../../helpers/p2p.js';

t.test('a fresh node fast-syncs to the same top and state root', async (t) => {
  const a = await startNode('a', {}, t);
  await mine(a, 60);
  const fresh = await startNode('fresh', { addPeers: [a.address], fastSyncMinHeight: 16 }, t);
  await waitUntil('the fresh node has caught up', () => converged(a, fresh), 60_000);
  t.equal(toHex(fresh.chain.top.stateRoot), toHex(a.chain.top.stateRoot), 'same state root');
  t.equal(fresh.chain.top.cumulativeWork, a.chain.top.cumulativeWork, 'same cumulative work');
  const snapshotHeight = 60n - STABLE_DEPTH;
  const floor = snapshotHeight + 2n - TX_VALIDITY_BLOCKS;
  const snapshots = fresh.app.container.cradle.snapshots;
  t.equal(snapshots.historyFloor(), floor, 'the history floor is the first block whose state it fetched');
  t.notOk(fresh.chain.metaAtTopo(floor - 1n), 'no block below the floor');
  t.ok(fresh.chain.metaAtTopo(floor), 'the block at the floor');
  t.ok(
    fresh.logLines.some((line) => /fast sync done/.test(line)),
    'it fast-synced',
  );
  await mine(a, 3);
  await waitUntil('the fresh node follows new blocks', () => converged(a, fresh));
});
