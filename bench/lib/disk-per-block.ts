/**
 * `disk-per-block`: how much the database grows per block of 100 ring-2 transfers, on an archive node (the source of
 * bench/sync.ts) and on a node that fast-synced from it and keeps the state of its last PRUNE_DEPTH blocks only. The
 * blocks are real: mined on the source through its templates, taken by the pruned node from it. Their transfers are
 * built ahead on worker threads, BATCH_BLOCKS blocks' worth at a time (all referencing the top, from accounts no
 * transfer touched). After WARM_UP_BLOCKS (past the prune depth, so that the pruned node drops states as fast as it
 * adds them), MEASURED_BLOCKS are measured; the growth counted is that of the live data (every key and value the
 * store holds: what RocksDB's compactions converge to, before compression), since deleted keys leave disk only when
 * RocksDB compacts them.
 */
import { fromHex, toHex } from '../../protocol/bytes.js';
import { NETWORKS } from '../../protocol/network.js';
import type { KeyValueStore } from '../../host/storage/kv-store.js';
import { converged, mine, waitUntil, type TestNode } from '../../test/helpers/p2p.js';
import type { BenchRow } from '../harness.js';
import type { Account } from './sync-chain.js';
import { buildTransfers } from './transfer-builders.js';

const TRANSFERS_PER_BLOCK = 100;
/** The smallest depth the node allows: the steady growth does not depend on it, the warm-up does. */
export const PRUNE_DEPTH = 12;
const WARM_UP_BLOCKS = 16;
const MEASURED_BLOCKS = 21;
/** Blocks whose transfers are built at once (a transfer may reference a block up to 10 back). */
const BATCH_BLOCKS = 8;
const SYNC_TIMEOUT_MS = 600_000;

async function liveBytes(store: KeyValueStore): Promise<number> {
  let bytes = 0;
  for await (const [key, value] of store.entries()) bytes += key.length + value.length;
  return bytes;
}

/** Mines `blocks` blocks of TRANSFERS_PER_BLOCK ring-2 transfers on `source`, `pruned` following. */
async function mineTransferBlocks(source: TestNode, pruned: TestNode, spare: Account[], blocks: number): Promise<void> {
  const { txPool } = source.app.container.cradle;
  for (let mined = 0; mined < blocks; ) {
    const batch = Math.min(BATCH_BLOCKS, blocks - mined);
    const top = source.chain.top;
    const reference = { height: top.height.toString(), blid: toHex(top.id), roothash: toHex(top.stateRoot) };
    const senders = spare.splice(0, 2 * batch * TRANSFERS_PER_BLOCK);
    if (senders.length < 2 * batch * TRANSFERS_PER_BLOCK) throw new Error('not enough untouched accounts');
    const jobs = Array.from({ length: batch * TRANSFERS_PER_BLOCK }, (_, i) => ({
      secretKey: senders[2 * i]!.secretKey,
      ring: [senders[2 * i]!.key, senders[2 * i + 1]!.key],
      senderIndex: 0,
      receiverIndex: 1,
    }));
    const txs = await buildTransfers(NETWORKS.simulator.generatorDomain, reference, jobs);
    for (let block = 0; block < batch; block++) {
      for (const hex of txs.slice(block * TRANSFERS_PER_BLOCK, (block + 1) * TRANSFERS_PER_BLOCK))
        txPool.add(fromHex(hex));
      await mine(source, 1);
      if (source.chain.top.txCount < TRANSFERS_PER_BLOCK) throw new Error('a block left transfers out');
      await waitUntil('the pruned node has the block', () => converged(source, pruned), SYNC_TIMEOUT_MS);
    }
    mined += batch;
    console.log(`disk-per-block: ${mined} of ${blocks} blocks of transfers`);
  }
}

/** The rows `archive` (`source`) and `pruned` (`pruned`, a fast-synced node with --prune-depth PRUNE_DEPTH). */
export async function diskPerBlockRows(source: TestNode, pruned: TestNode, spare: Account[]): Promise<BenchRow[]> {
  await waitUntil('the pruned node has synced', () => converged(source, pruned), SYNC_TIMEOUT_MS);
  const started = Date.now();
  await mineTransferBlocks(source, pruned, spare, WARM_UP_BLOCKS);
  const nodes = { archive: source, pruned };
  const before = new Map<string, number>();
  for (const [impl, node] of Object.entries(nodes)) before.set(impl, await liveBytes(node.app.container.cradle.store));
  await mineTransferBlocks(source, pruned, spare, MEASURED_BLOCKS);
  const rows: BenchRow[] = [];
  for (const [impl, node] of Object.entries(nodes)) {
    const growth = (await liveBytes(node.app.container.cradle.store)) - before.get(impl)!;
    rows.push({ case: 'disk-per-block', impl, unit: 'bytes', value: Math.round(growth / MEASURED_BLOCKS) });
  }
  console.log(`disk-per-block: ${WARM_UP_BLOCKS + MEASURED_BLOCKS} blocks in ${(Date.now() - started) / 1000} s`);
  return rows;
}
