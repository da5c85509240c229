import { blake2s } from '@noble/hashes/blake2.js';
import t from 'tap';
import { MemoryStore } from '../../../../host/storage/memory-store.js';
import {
  isWellFormed,
  RangeProofError,
  verifyRange,
  WHOLE_TRIE,
  halvesOf,
  type KeyRange,
  type TrieChunk,
} from '../../../../protocol/state/range-check.js';
import { proveRange, type ChunkLimits } from '../../../../plugins/consensus/state/range-proof.js';
import { StateDb } from '../../../../plugins/consensus/state/state-db.js';
import { bitAt, decodeNode, type TrieNode } from '../../../../protocol/state/trie-node.js';
import { Trie, type NodeSource } from '../../../../plugins/consensus/state/trie.js';

const hasher = (data: Uint8Array): Uint8Array => blake2s(data);
const b = (text: string): Uint8Array => new TextEncoder().encode(text);
const TREE = b('T');
const LIMITS: ChunkLimits = { leaves: 16, bytes: 64 * 1024 };

/** A state with `count` keys in one trie; returns the node source and that trie's root. */
async function trieOf(count: number): Promise<{ nodes: NodeSource; root: Uint8Array }> {
  const store = new MemoryStore();
  const db = new StateDb(store, hasher);
  const state = db.writable(null);
  for (let i = 0; i < count; i++) state.tree(TREE).put(b(`key ${i}`), b(`value ${i}`.repeat(1 + (i % 3))));
  const batch = store.batch();
  const { version } = state.commit(batch);
  await batch.write();
  return { nodes: db.persisted, root: db.snapshot(version).treeRoot(TREE) };
}

/** Fetches a whole trie range by range as a syncing node does; returns the leaves and the nodes it would store. */
function syncTrie(
  nodes: NodeSource,
  root: Uint8Array,
): { keys: string[]; stored: Map<string, Uint8Array>; chunks: number } {
  const queue: KeyRange[] = [WHOLE_TRIE];
  const keys: string[] = [];
  const stored = new Map<string, Uint8Array>();
  let chunks = 0;
  while (queue.length > 0) {
    const range = queue.shift()!;
    const verified = verifyRange(hasher, root, range, proveRange(nodes, root, range, LIMITS));
    chunks++;
    queue.push(...verified.halves.map((half) => half.range));
    for (const leaf of verified.leaves) keys.push(new TextDecoder().decode(leaf.key));
    for (const { hash, encoded } of verified.nodes) stored.set(Buffer.from(hash).toString('hex'), encoded);
  }
  return { keys, stored, chunks };
}

t.test('a trie fetched range by range holds every leaf once and rebuilds on its own', async (t) => {
  for (const count of [0, 1, 2, 3, 17, 500]) {
    const { nodes, root } = await trieOf(count);
    const { keys, stored, chunks } = syncTrie(nodes, root);
    t.equal(keys.length, count, `${count} keys: every leaf`);
    t.equal(new Set(keys).size, count, `${count} keys: each once`);
    if (count === 500) t.ok(chunks > 500 / LIMITS.leaves, 'a big trie comes in many chunks');
    // The stored nodes alone make a readable trie with the same root.
    const load = (hash: Uint8Array): TrieNode => {
      const encoded = stored.get(Buffer.from(hash).toString('hex'));
      if (!encoded) throw new Error('a node the chunks did not bring');
      return decodeNode(encoded);
    };
    const source: NodeSource = {
      hash: hasher,
      nil: nodes.nil,
      load,
      loadMany: (hashes) => hashes.map(load),
      fetchMany: async (hashes) => hashes.map(load),
      save: () => t.fail('read only'),
    };
    const copy = new Trie(source, root);
    t.equal([...copy.entries()].length, count, `${count} keys: the stored nodes alone hold the trie`);
  }
});

/** Every chunk of a trie, with the range it answers. */
function allChunks(nodes: NodeSource, root: Uint8Array): { range: KeyRange; chunk: TrieChunk }[] {
  const out: { range: KeyRange; chunk: TrieChunk }[] = [];
  const queue: KeyRange[] = [WHOLE_TRIE];
  while (queue.length > 0) {
    const range = queue.shift()!;
    const chunk = proveRange(nodes, root, range, LIMITS);
    out.push({ range, chunk });
    queue.push(...verifyRange(hasher, root, range, chunk).halves.map((half) => half.range));
  }
  return out;
}

t.test('a range is answered whole exactly when its leaves fit the limits, split otherwise', async (t) => {
  const count = 300;
  const { nodes, root } = await trieOf(count);
  const entries = Array.from({ length: count }, (_, i) => ({
    keyhash: hasher(b(`key ${i}`)),
    bytes: b(`key ${i}`).length + b(`value ${i}`.repeat(1 + (i % 3))).length,
  }));
  const within = (range: KeyRange) =>
    entries.filter(({ keyhash }) =>
      [...Array(range.bits).keys()].every((i) => bitAt(keyhash, i) === bitAt(range.prefix, i)),
    );
  for (const limits of [LIMITS, { leaves: 1024, bytes: 300 }, { leaves: 1, bytes: 1 << 20 }]) {
    let ranges = 0;
    let wrong = 0;
    const queue: KeyRange[] = [WHOLE_TRIE];
    while (queue.length > 0) {
      const range = queue.shift()!;
      const chunk = proveRange(nodes, root, range, limits);
      const held = within(range);
      const bytes = held.reduce((sum, entry) => sum + entry.bytes, 0);
      const tooBig = held.length > limits.leaves || (held.length > 1 && bytes > limits.bytes);
      if (chunk.split !== tooBig || (!chunk.split && chunk.leaves.length !== held.length)) wrong++;
      ranges++;
      queue.push(...verifyRange(hasher, root, range, chunk).halves.map((half) => half.range));
    }
    t.equal(wrong, 0, `${ranges} ranges at ${limits.leaves} leaves and ${limits.bytes} bytes`);
  }
});

t.test('a tampered chunk is rejected', async (t) => {
  const { nodes, root } = await trieOf(300);
  const chunks = allChunks(nodes, root);
  const leafChunk = chunks.find((c) => c.chunk.leaves.length >= 3)!;
  const splitChunk = chunks.find((c) => c.chunk.split && c.range.bits > 0)!;
  const { range, chunk } = leafChunk;
  const other = chunks.find((c) => c !== leafChunk && c.chunk.leaves.length > 0)!;
  const tampered: [string, TrieChunk][] = [
    [
      'a changed value',
      {
        ...chunk,
        leaves: chunk.leaves.map((l, i) => (i === 1 ? { key: l.key, value: b('stolen') } : l)),
      },
    ],
    ['a missing leaf', { ...chunk, leaves: chunk.leaves.slice(1) }],
    ['an extra leaf from another range', { ...chunk, leaves: [...chunk.leaves, other.chunk.leaves[0]!] }],
    ['leaves out of order', { ...chunk, leaves: [...chunk.leaves].reverse() }],
    ['no leaves', { ...chunk, leaves: [] }],
    ['a dropped path node', { ...chunk, path: chunk.path.slice(1) }],
    ['a forged path node', { ...chunk, path: chunk.path.map((n, i) => (i === 0 ? flip(n) : n)) }],
    ['garbage in the path', { ...chunk, path: chunk.path.map((n, i) => (i === 0 ? b('x') : n)) }],
    ['a fake split', { ...chunk, leaves: [], split: true }],
  ];
  for (const [what, bad] of tampered) t.throws(() => verifyRange(hasher, root, range, bad), RangeProofError, what);
  t.throws(
    () => verifyRange(hasher, root, splitChunk.range, { ...splitChunk.chunk, split: false }),
    RangeProofError,
    'a split passed off as an empty range',
  );
  t.throws(
    () => verifyRange(hasher, hasher(b('another root')), range, chunk),
    RangeProofError,
    'a chunk of another root',
  );
});

function flip(bytes: Uint8Array): Uint8Array {
  const out = Uint8Array.from(bytes);
  out[out.length - 1]! ^= 1;
  return out;
}

t.test('ranges are well formed or refused', async (t) => {
  t.ok(isWellFormed(WHOLE_TRIE));
  const [left, right] = halvesOf(WHOLE_TRIE);
  t.same([left.bits, [...left.prefix], right.bits, [...right.prefix]], [1, [0], 1, [0x80]]);
  const [, deeper] = halvesOf({ bits: 8, prefix: Uint8Array.of(0xff) });
  t.same([...deeper.prefix], [0xff, 0x80]);
  t.notOk(isWellFormed({ bits: 1, prefix: Uint8Array.of(0x40) }), 'a bit set past the range');
  t.notOk(isWellFormed({ bits: 9, prefix: Uint8Array.of(0) }), 'a prefix too short');
  t.notOk(isWellFormed({ bits: 97, prefix: new Uint8Array(13) }), 'too deep');
  const { nodes, root } = await trieOf(5);
  t.throws(
    () => verifyRange(hasher, root, { bits: 1, prefix: Uint8Array.of(0x40) }, { path: [], leaves: [], split: false }),
    RangeProofError,
  );
  // A range deeper than the trie: the path ends at a leaf or nil above it, and the chunk says so.
  const deep = { bits: 40, prefix: hasher(b('key 3')).subarray(0, 5) };
  const chunk = proveRange(nodes, root, deep, LIMITS);
  t.same(
    verifyRange(hasher, root, deep, chunk).leaves.map((l) => new TextDecoder().decode(l.key)),
    ['key 3'],
    'the leaf above a deep range is proven to be in it',
  );
});
