/**
 * The history floor: the first topoheight whose state this node holds (`s F` → u64 big-endian). Absent means 0, an
 * archive node's full history. Fast sync sets it to the snapshot's topoheight; pruning advances it.
 */
import { ByteReader, ByteWriter } from '../../../protocol/bytes.js';
import type { KeyValueStore, WriteBatch } from '../../../host/storage/kv-store.js';

const FLOOR_KEY = new TextEncoder().encode('sF');

export function readHistoryFloor(store: KeyValueStore): bigint {
  const bytes = store.getSync(FLOOR_KEY);
  return bytes ? new ByteReader(bytes, 'history floor').u64be('topoheight') : 0n;
}

export function putHistoryFloor(batch: WriteBatch, topoheight: bigint): void {
  batch.put(FLOOR_KEY, new ByteWriter().u64be(topoheight).finish());
}
