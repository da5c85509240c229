/** A versioned state with a varied history (several tries, shared leaves, deletions, values that come back), for pruning tests. */
import { blake2s } from '@noble/hashes/blake2.js';
import { toHex } from '../../protocol/bytes.js';
import type { KeyValueStore } from '../../host/storage/kv-store.js';
import { StateDb } from '../../plugins/consensus/state/state-db.js';

const b = (text: string): Uint8Array => new TextEncoder().encode(text);

export const stateHasher = (data: Uint8Array): Uint8Array => blake2s(data);

export function openStateDb(store: KeyValueStore): StateDb {
  return new StateDb(store, stateHasher);
}

/** Commits `count` versions on top of the latest one; each changes a few keys of three tries. */
export async function commitHistory(db: StateDb, count: number, seed = 1): Promise<void> {
  let x = seed;
  const random = (n: number): number => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % n;
  };
  for (let i = 0; i < count; i++) {
    const latest = db.latestVersion();
    const state = db.writable(latest < 0n ? null : latest);
    for (let change = 0; change < 12; change++) {
      const key = b(`account-${random(60)}`);
      // Few distinct values, so a later version often writes a node an older one had (a re-created node).
      if (random(5) === 0) state.tree(b('B')).delete(key);
      else state.tree(b('B')).put(key, b(`balance-${random(4)}`));
    }
    // Two contracts holding the same variables share their leaf nodes.
    for (const contract of ['C1', 'C2']) {
      state.tree(b(contract)).put(b('owner'), b('alice'));
      state.tree(b(contract)).put(b('counter'), b(`${random(3)}`));
    }
    if (random(4) === 0) state.tree(b('C2')).put(b('owner'), b(random(2) ? 'bob' : 'alice'));
    const batch = db.store.batch();
    state.commit(batch);
    await batch.write();
  }
}

/** Every (trie, key, value) of a version, as hex, read through a fresh StateDb (no cached nodes). */
export function readVersion(store: KeyValueStore, version: bigint): Record<string, Record<string, string>> {
  const snapshot = openStateDb(store).snapshot(version);
  const tries: Record<string, Record<string, string>> = {};
  for (const name of snapshot.treeNames()) {
    const entries: Record<string, string> = {};
    for (const leaf of snapshot.tree(name).entries()) entries[toHex(leaf.key)] = toHex(leaf.value);
    tries[toHex(name)] = entries;
  }
  return tries;
}

/** How many nodes the store holds. */
export async function storedNodeCount(db: StateDb): Promise<number> {
  let count = 0;
  for await (const _ of db.nodeHashes(0, 256)) count++;
  return count;
}

/** How many distinct stored nodes the versions from `from` on reach (the nodes a perfect prune keeps). */
export async function reachableNodeCount(db: StateDb, from: bigint): Promise<number> {
  const seen = new Set<string>();
  for await (const { root } of db.versions({ from })) {
    const stack = [{ hash: root, meta: true }];
    while (stack.length > 0) {
      const { hash, meta } = stack.pop()!;
      const node = db.storedNode(hash);
      if (!node || seen.has(toHex(hash))) continue;
      if (db.store.getSync(new Uint8Array([0x73, 0x6e, ...hash]))) seen.add(toHex(hash));
      if (node.kind === 'inner') stack.push({ hash: node.left, meta }, { hash: node.right, meta });
      else if (meta) stack.push({ hash: node.value, meta: false });
    }
  }
  return seen.size;
}
