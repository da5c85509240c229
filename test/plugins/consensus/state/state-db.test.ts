import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blake2s } from '@noble/hashes/blake2.js';
import t from 'tap';
import { toHex } from '../../../../protocol/bytes.js';
import type { KeyValueStore } from '../../../../host/storage/kv-store.js';
import { MemoryStore } from '../../../../host/storage/memory-store.js';
import { RocksDbStore } from '../../../../host/storage/rocksdb-store.js';
import { StateDb } from '../../../../plugins/consensus/state/state-db.js';
import { Trie } from '../../../../plugins/consensus/state/trie.js';
import { loadVectors } from '../../../helpers/vectors.js';

const vectors = loadVectors('state-trie.json');
const b = (text: string): Uint8Array => new TextEncoder().encode(text);
const hasher = (data: Uint8Array): Uint8Array => blake2s(data);
const TREE = b('T');

/** A deterministic pseudo-random generator, so failures reproduce. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** The root of a single trie holding `entries`, built in one commit. */
async function rootOf(entries: [string, string][], order: number[]): Promise<Uint8Array> {
  const store = new MemoryStore();
  const db = new StateDb(store, hasher);
  const state = db.writable(null);
  for (const i of order) state.tree(TREE).put(b(entries[i]![0]), b(entries[i]![1]));
  const batch = store.batch();
  const { version } = state.commit(batch);
  await batch.write();
  return db.snapshot(version).treeRoot(TREE);
}

const stores: [string, () => Promise<KeyValueStore>][] = [
  ['memory', async () => new MemoryStore()],
  ['rocksdb', () => RocksDbStore.open(mkdtempSync(join(tmpdir(), 'umbra-state-')))],
];

t.test('graviton trie vectors reproduce', async (t) => {
  const db = new StateDb(new MemoryStore(), hasher);
  t.equal(toHex(db.emptyRoot()), vectors.empty, 'empty trie root');
  for (const name of ['one', 'two'] as const) {
    const store = new MemoryStore();
    const state = new StateDb(store, hasher).writable(null);
    for (const [key, value] of Object.entries(vectors[name].entries as Record<string, string>))
      state.tree(TREE).put(b(key), b(value));
    const batch = store.batch();
    state.commit(batch);
    await batch.write();
    const reread = new StateDb(store, hasher).snapshot(0n);
    t.equal(toHex(reread.treeRoot(TREE)), vectors[name].root, `${name} key(s)`);
  }
});

for (const [kind, open] of stores) {
  t.test(`versions, history and canonical shape on ${kind}`, async (t) => {
    const store = await open();
    t.teardown(() => store.close());
    const db = new StateDb(store, hasher);
    t.equal(db.latestVersion(), -1n);
    const model = new Map<string, string>();
    const roots: Uint8Array[] = [];
    const random = rng(42);
    let base: bigint | null = null;
    for (let version = 0; version < 30; version++) {
      const state = db.writable(base);
      for (let i = 0; i < 25; i++) {
        const key = `k${Math.floor(random() * 120)}`;
        if (random() < 0.3) {
          state.tree(TREE).delete(b(key));
          model.delete(key);
        } else {
          const value = `v${version}-${i}`;
          state.tree(TREE).put(b(key), b(value));
          model.set(key, value);
        }
      }
      t.equal(
        new TextDecoder().decode(state.tree(TREE).get(b([...model.keys()][0] ?? 'none')) ?? b('')),
        model.get([...model.keys()][0] ?? 'none') ?? '',
        'reads see pending writes',
      );
      const batch = store.batch();
      const { version: committed, root } = state.commit(batch);
      t.equal(committed, BigInt(version));
      t.equal(db.latestVersion(), BigInt(version) - 1n, 'nothing is visible before the batch is written');
      await batch.write();
      base = committed;
      roots.push(root);
      // Differential check against the model, and canonical shape: rebuilding from scratch gives the same trie root.
      const snapshot = db.snapshot(committed);
      const tree = snapshot.tree(TREE);
      for (const [key, value] of model) t.equal(new TextDecoder().decode(tree.get(b(key))!), value);
      t.equal([...tree.entries()].length, model.size, 'entry count');
      const entries = [...model.entries()];
      const shuffled = entries.map((_, i) => i).sort(() => random() - 0.5);
      t.equal(toHex(await rootOf(entries, shuffled)), toHex(tree.root), 'same root in any insertion order');
    }
    // Every historical version is still readable after reopening.
    const reopened = new StateDb(store, hasher);
    for (let version = 0; version < roots.length; version++)
      t.equal(toHex(reopened.snapshot(BigInt(version)).root), toHex(roots[version]!));
    t.throws(() => reopened.snapshot(999n), { name: 'StateError', message: 'state version 999 does not exist' });
  });
}

t.test('deleting everything returns the empty roots; depth and key-hash prefix lookup', async (t) => {
  const store = new MemoryStore();
  const db = new StateDb(store, hasher);
  const state = db.writable(null);
  const keys = Array.from({ length: 64 }, (_, i) => b(`key-${i}`));
  for (const key of keys) state.tree(TREE).put(key, key);
  const batch = store.batch();
  const first = state.commit(batch);
  await batch.write();
  const tree = db.snapshot(first.version).tree(TREE);
  for (const key of keys) {
    const depth = tree.depth(key)!;
    t.ok(depth >= 1 && depth < 20, 'a key sits a few levels down');
    const keyhash = hasher(key);
    t.same(tree.findByKeyHashPrefix(keyhash.slice(0, 16))?.key, key, 'found by a 16-byte key-hash prefix');
  }
  t.equal(tree.findByKeyHashPrefix(new Uint8Array(0)), undefined, 'an empty prefix is ambiguous');
  t.equal(tree.depth(b('absent')), undefined);

  const erase = db.writable(first.version);
  for (const key of keys) erase.tree(TREE).delete(key);
  const batch2 = store.batch();
  const second = erase.commit(batch2);
  await batch2.write();
  t.equal(toHex(second.root), toHex(db.emptyRoot()), 'the state root is empty again');
  t.equal(toHex(db.snapshot(second.version).treeRoot(TREE)), toHex(Trie.emptyRoot(db.persisted)));
  t.same(db.snapshot(second.version).treeNames(), [], 'no trees left');
  t.same(db.snapshot(first.version).treeNames(), [TREE], 'the old version still has its tree');
});

t.test('a full node cache evicts its oldest nodes, and empty tries still read and write after eviction', async (t) => {
  const store = new MemoryStore();
  const small = new StateDb(store, hasher, undefined, 2048);
  const commit = async (fill: (state: ReturnType<StateDb['writable']>) => void, base: bigint | null) => {
    const state = small.writable(base);
    fill(state);
    const batch = store.batch();
    const { version } = state.commit(batch);
    await batch.write();
    return version;
  };
  const first = await commit((state) => {
    for (let i = 0; i < 200; i++) state.tree(TREE).put(b(`key ${i}`), b(`value ${i}`));
  }, null);
  const reference = new StateDb(store, hasher).snapshot(first);
  const evicted = small.snapshot(first);
  for (let i = 0; i < 200; i++) t.equal(toHex(evicted.tree(TREE).get(b(`key ${i}`))!), toHex(b(`value ${i}`)));
  t.equal(toHex(evicted.root), toHex(reference.root), 'the same root through a cache far smaller than the trie');
  t.equal(evicted.tree(b('never written')).get(b('key 1')), undefined, 'an empty trie reads after evictions');
  const second = await commit((state) => state.tree(b('new tree')).put(b('a'), b('b')), first);
  t.equal(toHex(small.snapshot(second).tree(b('new tree')).get(b('a'))!), toHex(b('b')), 'an empty trie takes a write');
});

t.test('many keys read at once equal the keys read one by one, stored, changed, deleted or absent', async (t) => {
  for (const [name, open] of stores) {
    const store = await open();
    const db = new StateDb(store, hasher);
    const keys = Array.from({ length: 300 }, (_, i) => b(`key-${i}`));
    const state = db.writable(null);
    for (const key of keys.slice(0, 200)) state.tree(TREE).put(key, b(`value of ${key}`));
    const batch = store.batch();
    const { version } = state.commit(batch);
    await batch.write();
    const stored = db.snapshot(version).tree(TREE);
    const asked = [...keys].reverse().concat(keys.slice(0, 3));
    t.same(
      stored.getMany(asked),
      asked.map((key) => stored.get(key)),
      `${name}: a snapshot, in the keys' order`,
    );
    t.same(
      db.snapshot(version).tree(TREE).getMany(asked),
      asked.map((key) => stored.get(key)),
      `${name}: remembered`,
    );
    const overlay = db.writable(version).tree(TREE);
    overlay.put(keys[5]!, b('changed'));
    overlay.delete(keys[6]!);
    overlay.put(keys[250]!, b('new'));
    const many = overlay.getMany(asked);
    t.same(
      many,
      asked.map((key) => overlay.get(key)),
      `${name}: an overlay sees its own changes first`,
    );
    t.same(overlay.getMany([keys[5]!, keys[6]!, keys[250]!]), [b('changed'), undefined, b('new')]);
    t.same(new StateDb(store, hasher).snapshot(version).tree(TREE).getMany([]), [], `${name}: no keys`);
    await store.close();
  }
});

for (const [kind, open] of stores) {
  t.test(`${kind} store: a commit after a prefetch reads nothing on the main thread`, async (t) => {
    const store = await open();
    const written = new StateDb(store, hasher);
    const first = written.writable(null);
    for (let i = 0; i < 300; i++)
      for (const tree of [TREE, b('U'), b('W')]) first.tree(tree).put(b(`key ${i}`), b(`v${i}`));
    const batch = store.batch();
    const { version } = first.commit(batch);
    await batch.write();

    // A fresh database over the same store: none of its nodes is cached yet.
    const changes = (state: ReturnType<StateDb['writable']>) => {
      for (let i = 0; i < 300; i += 7) state.tree(TREE).put(b(`key ${i}`), b(`new ${i}`));
      state.tree(b('U')).delete(b('key 3'));
      for (let i = 100; i < 300; i++) state.tree(b('W')).delete(b(`key ${i}`));
      state.tree(b('V')).put(b('key'), b('a new trie'));
    };
    const expected = written.writable(version);
    changes(expected);
    // Trie nodes read synchronously (the version records are read so too, and are not what a prefetch is for).
    let syncReads = 0;
    const isNode = (key: Uint8Array) => key[0] === 0x73 && key[1] === 0x6e;
    const counting: KeyValueStore = Object.create(store, {
      getMany: { value: (keys: Uint8Array[]) => store.getMany(keys) },
      getSync: {
        value: (key: Uint8Array) => {
          syncReads += Number(isNode(key));
          return store.getSync(key);
        },
      },
      getManySync: {
        value: (keys: Uint8Array[]) => {
          syncReads += keys.filter(isNode).length;
          return store.getManySync(keys);
        },
      },
    });
    const db = new StateDb(counting, hasher);
    const state = db.writable(version);
    changes(state);
    syncReads = 0;
    await state.prefetch();
    t.equal(syncReads, 0, 'the prefetch reads off the main thread');
    const { root } = state.commit(store.batch());
    t.equal(syncReads, 0, 'the commit finds every node it walks at hand', { syncReads });
    t.equal(toHex(root), toHex(expected.commit(store.batch()).root), 'the same root as without a prefetch');
    await store.close();
  });
}
