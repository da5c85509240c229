/**
 * What a fast sync decided once its header chain was checked, kept in the store so that a restart resumes at the
 * state phase instead of starting over: the blocks whose states it fetches (the snapshot block and the ones before
 * it that transactions after it may still reference). The state tries' done ranges are kept by the state itself
 * (imported subtrees are marked whole), so what was fetched is not fetched again.
 *
 * Key in the store:  p F → JSON of the planned blocks' metadata
 */
import { fromHex, toHex } from '../../protocol/bytes.js';
import type { BlockMeta } from '../../host/services/chain.js';
import type { KeyValueStore } from '../../host/storage/kv-store.js';

const PLAN_KEY = new TextEncoder().encode('pF');

type StoredMeta = Record<keyof BlockMeta, string | number>;

export async function savePlan(store: KeyValueStore, metas: BlockMeta[]): Promise<void> {
  const stored: StoredMeta[] = metas.map((meta) => ({
    id: toHex(meta.id),
    height: meta.height.toString(),
    timestamp: meta.timestamp.toString(),
    difficulty: meta.difficulty.toString(),
    cumulativeWork: meta.cumulativeWork.toString(),
    stateVersion: meta.stateVersion.toString(),
    stateRoot: toHex(meta.stateRoot),
    size: meta.size,
    txCount: meta.txCount,
    reward: meta.reward.toString(),
  }));
  await store.put(PLAN_KEY, new TextEncoder().encode(JSON.stringify(stored)));
}

/** The saved plan, or undefined when no fast sync is under way. */
export function loadPlan(store: KeyValueStore): BlockMeta[] | undefined {
  const bytes = store.getSync(PLAN_KEY);
  if (!bytes) return undefined;
  const stored = JSON.parse(new TextDecoder().decode(bytes)) as StoredMeta[];
  return stored.map((m) => ({
    id: fromHex(String(m.id)),
    height: BigInt(m.height),
    timestamp: BigInt(m.timestamp),
    difficulty: BigInt(m.difficulty),
    cumulativeWork: BigInt(m.cumulativeWork),
    stateVersion: BigInt(m.stateVersion),
    stateRoot: fromHex(String(m.stateRoot)),
    size: Number(m.size),
    txCount: Number(m.txCount),
    reward: BigInt(m.reward),
  }));
}

export async function clearPlan(store: KeyValueStore): Promise<void> {
  await store.del(PLAN_KEY);
}
