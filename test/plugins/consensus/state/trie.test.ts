/**
 * Trie updates over an in-memory node source: the root depends only on the (key, value) set, an update reads only the
 * nodes on its changed paths, and a delete that leaves a lone stored leaf pulls it up.
 */
import { blake2s } from '@noble/hashes/blake2.js';
import t from 'tap';
import { cacheKey, nilHash, type TrieNode } from '../../../../protocol/state/trie-node.js';
import { Trie, type NodeSource, type TrieChange } from '../../../../plugins/consensus/state/trie.js';

const hash = (data: Uint8Array): Uint8Array => blake2s(data);
const b = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A node source over a Map that counts its loads. */
function memoryNodes(): NodeSource & { loads: number } {
  const nodes = new Map<string, TrieNode>();
  const source = {
    loads: 0,
    hash,
    nil: nilHash(hash),
    load(node: Uint8Array): TrieNode {
      source.loads++;
      const found = nodes.get(cacheKey(node));
      if (!found) throw new Error('unknown node');
      return found;
    },
    loadMany: (hashes: Uint8Array[]) => hashes.map((h) => source.load(h)),
    fetchMany: async (hashes: Uint8Array[]) => source.loadMany(hashes),
    save: (node: Uint8Array, decoded: TrieNode) => void nodes.set(cacheKey(node), decoded),
  };
  const emptyRoot = Trie.emptyRoot(source);
  nodes.set(cacheKey(emptyRoot), { kind: 'inner', left: source.nil, right: source.nil });
  return source;
}

const put = (key: string, value: string): TrieChange => ({ keyhash: hash(b(key)), key: b(key), value: b(value) });
const del = (key: string): TrieChange => ({ keyhash: hash(b(key)), key: b(key), value: null });
const keys = (count: number, from = 0): string[] => Array.from({ length: count }, (_, i) => `key ${from + i}`);

t.test('an update reads only the nodes on its changed paths, and the root is that of the set', async (t) => {
  const nodes = memoryNodes();
  const root = new Trie(nodes, Trie.emptyRoot(nodes)).update(keys(1000).map((k) => put(k, 'one')));
  const direct = memoryNodes();
  const changed = new Trie(direct, Trie.emptyRoot(direct)).update([
    ...keys(999).map((k) => put(k, 'one')),
    put('key 999', 'two'),
  ]);
  nodes.loads = 0;
  const updated = new Trie(nodes, root).update([put('key 999', 'two')]);
  t.same(updated, changed, 'the same root as building the set directly');
  const path = new Trie(nodes, updated).depth(hash(b('key 999')))!;
  nodes.loads = 0;
  new Trie(nodes, root).update([put('key 999', 'two')]);
  t.equal(nodes.loads, path + 1, 'one load per node on the path (inner nodes and the leaf), no sibling');
});

t.test('a delete that leaves a lone stored leaf pulls it up to where the canonical shape puts it', async (t) => {
  for (const count of [2, 3, 17, 100]) {
    const nodes = memoryNodes();
    const all = keys(count);
    const root = new Trie(nodes, Trie.emptyRoot(nodes)).update(all.map((k) => put(k, 'v')));
    for (const gone of [all[0]!, all[count - 1]!]) {
      const after = new Trie(nodes, root).update([del(gone)]);
      const direct = memoryNodes();
      const expected = new Trie(direct, Trie.emptyRoot(direct)).update(
        all.filter((k) => k !== gone).map((k) => put(k, 'v')),
      );
      t.same(after, expected, `${count} keys without ${gone}: the root of the remaining set`);
    }
  }
});

t.test('many key hashes are found in one walk: equal to one by one, each shared node loaded once', async (t) => {
  const nodes = memoryNodes();
  const empty = Trie.emptyRoot(nodes);
  t.same(new Trie(nodes, empty).getMany([hash(b('key 1'))]), [undefined], 'an empty trie holds nothing');
  const root = new Trie(nodes, empty).update(keys(500).map((k) => put(k, `value of ${k}`)));
  const trie = new Trie(nodes, root);
  const asked = [...keys(600), 'key 7', 'key 7'].map((k) => hash(b(k)));
  nodes.loads = 0;
  const many = trie.getMany(asked);
  const together = nodes.loads;
  t.same(
    many,
    asked.map((keyhash) => trie.get(keyhash)),
    'present, absent and repeated keys as one by one',
  );
  nodes.loads = 0;
  for (const keyhash of asked) trie.get(keyhash);
  t.ok(together < nodes.loads / 4, `one walk loads ${together} nodes, one by one ${nodes.loads}`);
});
