/**
 * Range proofs for state snapshots (docs/protocol.md § State snapshots). A range is every leaf of one trie whose key
 * hash starts with a bit prefix. A chunk proves it: the encoded nodes on the path from the trie's root down to the
 * range (each must hash to the hash its parent names), then the range's leaves, which rebuild the range's canonical
 * subtree — whose hash must be the one the path ends at. A range too big for one chunk is answered with its inner node
 * instead (a `split`), and its two halves are asked for next.
 */
import { equalBytes } from '../../../protocol/bytes.js';
import {
  BadChunk,
  MAX_RANGE_BITS,
  type ChunkLeaf,
  type KeyRange,
  type TrieChunk,
} from '../../../host/services/snapshots.js';
import {
  bitAt,
  decodeNode,
  encodeNode,
  hashAll,
  hashEachWith,
  innerHash,
  innerPreimage,
  leafHash,
  leafPreimage,
  nilHash,
  type HashMany,
  type Hasher,
  type LeafNode,
  type TrieNode,
} from './trie-node.js';
import type { NodeSource } from './trie.js';

/** What a verified chunk holds: its nodes (to store) and leaves, or the halves to ask for when it was split. */
export interface VerifiedChunk {
  leaves: LeafNode[];
  nodes: { hash: Uint8Array; encoded: Uint8Array }[];
  /** The halves of a split range, with the subtree hash each must have (empty halves left out). */
  halves: { range: KeyRange; hash: Uint8Array }[];
  /** The hash of the subtree the leaves rebuilt (absent for a split, or a range the path ended above). */
  subtree?: Uint8Array;
  /** The inner nodes of that subtree: each roots a subtree the chunk holds whole. */
  wholeInner: Uint8Array[];
}

export interface ChunkLimits {
  leaves: number;
  /** Bytes of keys and values; a lone leaf is sent whatever its size. */
  bytes: number;
}

/** A chunk whose proof fails, naming what is wrong (a BadChunk, `snapshot.bad-chunk`). */
export class RangeProofError extends BadChunk {
  override readonly name = 'RangeProofError';
}

export type { KeyRange, TrieChunk };

export const WHOLE_TRIE: KeyRange = { bits: 0, prefix: new Uint8Array(0) };

/** The two halves of a range, one bit deeper. */
export function halvesOf(range: KeyRange): [KeyRange, KeyRange] {
  const bytes = (range.bits >> 3) + 1;
  const left = new Uint8Array(bytes);
  left.set(range.prefix.subarray(0, bytes));
  const right = Uint8Array.from(left);
  right[range.bits >> 3]! |= 0x80 >> (range.bits & 7);
  return [
    { bits: range.bits + 1, prefix: left },
    { bits: range.bits + 1, prefix: right },
  ];
}

/** Whether a range is well formed: at most MAX_RANGE_BITS bits, the prefix just long enough, no bit set past them. */
export function isWellFormed(range: KeyRange): boolean {
  if (!Number.isInteger(range.bits) || range.bits < 0 || range.bits > MAX_RANGE_BITS) return false;
  if (range.prefix.length !== Math.ceil(range.bits / 8)) return false;
  const spare = range.prefix.length * 8 - range.bits;
  return spare === 0 || (range.prefix[range.prefix.length - 1]! & ((1 << spare) - 1)) === 0;
}

function inRange(keyhash: Uint8Array, range: KeyRange): boolean {
  for (let bit = 0; bit < range.bits; bit++) if (bitAt(keyhash, bit) !== bitAt(range.prefix, bit)) return false;
  return true;
}

/** Builds the chunk proving `range` of the trie at `root` (the serving side). */
export function proveRange(nodes: NodeSource, root: Uint8Array, range: KeyRange, limits: ChunkLimits): TrieChunk {
  const path: Uint8Array[] = [];
  let hash = root;
  for (let depth = 0; depth < range.bits; depth++) {
    if (equalBytes(hash, nodes.nil)) return { path, leaves: [], split: false };
    const node = nodes.load(hash);
    path.push(encodeNode(node));
    if (node.kind === 'leaf') return { path, leaves: inRange(node.keyhash, range) ? [node] : [], split: false };
    hash = bitAt(range.prefix, depth) ? node.right : node.left;
  }
  if (equalBytes(hash, nodes.nil)) return { path, leaves: [], split: false };
  const top = nodes.load(hash);
  if (top.kind === 'leaf') return { path, leaves: [top], split: false };
  const leaves = collectLeaves(nodes, top, limits);
  if (leaves) return { path, leaves, split: false };
  path.push(encodeNode(top));
  return { path, leaves: [], split: true };
}

/**
 * The leaves under `top` in key-hash order, or undefined when they exceed the limits. The subtree is read a level at
 * a time (one batched read each), and given up as soon as the leaves found, and the one or more under each child of
 * an inner node still to open, exceed the limits.
 */
function collectLeaves(nodes: NodeSource, top: TrieNode, limits: ChunkLimits): LeafNode[] | undefined {
  const present = (node: TrieNode): Uint8Array[] =>
    node.kind === 'inner' ? [node.left, node.right].filter((child) => !equalBytes(child, nodes.nil)) : [];
  let leaves = 0;
  let bytes = 0;
  const reached = (node: TrieNode): TrieNode => {
    if (node.kind === 'leaf') {
      leaves++;
      bytes += node.key.length + node.value.length;
    }
    return node;
  };
  let level = [reached(top)];
  for (;;) {
    const below = level.map(present);
    const atLeast = leaves + below.reduce((sum, children) => sum + children.length, 0);
    if (atLeast > limits.leaves || (atLeast > 1 && bytes > limits.bytes)) return undefined;
    if (level.every((node) => node.kind === 'leaf')) return level as LeafNode[];
    const children = nodes.loadMany(below.flat());
    let next = 0;
    level = level.flatMap((node, i) =>
      node.kind === 'leaf' ? [node] : below[i]!.map(() => reached(children[next++]!)),
    );
  }
}

function nodeHash(hash: Hasher, node: TrieNode): Uint8Array {
  return node.kind === 'inner' ? innerHash(hash, node.left, node.right) : leafHash(hash, node.keyhash, node.value);
}

/**
 * Checks a chunk for `range` of the trie whose root is `root` (the syncing side); throws a RangeProofError naming what
 * is wrong. The hash of every node is computed here, never taken from the sender. The leaves' subtree is hashed with
 * `hashMany`, a level at a time.
 */
export function verifyRange(
  hash: Hasher,
  root: Uint8Array,
  range: KeyRange,
  chunk: TrieChunk,
  hashMany: HashMany = hashEachWith(hash),
): VerifiedChunk {
  if (!isWellFormed(range)) throw new RangeProofError('the range is malformed');
  const nil = nilHash(hash);
  const nodes: VerifiedChunk['nodes'] = [];
  let expected = root;
  let depth = 0;
  const pathNode = (index: number): TrieNode => {
    const encoded = chunk.path[index];
    if (!encoded) throw new RangeProofError(`the path stops at depth ${index}`);
    let node: TrieNode;
    try {
      node = decodeNode(encoded);
    } catch {
      throw new RangeProofError(`path node ${index} does not decode`);
    }
    const computed = nodeHash(hash, node);
    if (!equalBytes(computed, expected))
      throw new RangeProofError(`path node ${index} is not the one its parent names`);
    nodes.push({ hash: computed, encoded });
    return node;
  };
  for (; depth < range.bits; depth++) {
    if (equalBytes(expected, nil)) return endsAt(chunk, depth, [], nodes);
    const node = pathNode(depth);
    if (node.kind === 'leaf') return endsAt(chunk, depth + 1, inRange(node.keyhash, range) ? [node] : [], nodes);
    expected = bitAt(range.prefix, depth) ? node.right : node.left;
  }
  if (chunk.split) {
    if (chunk.path.length !== depth + 1 || chunk.leaves.length > 0) throw new RangeProofError('a malformed split');
    const node = pathNode(depth);
    if (node.kind !== 'inner') throw new RangeProofError('a split of a range that is not an inner node');
    const halves = halvesOf(range)
      .map((half, side) => ({ range: half, hash: side ? node.right : node.left }))
      .filter((half) => !equalBytes(half.hash, nil));
    return { leaves: [], nodes, halves, wholeInner: [] };
  }
  if (chunk.path.length !== depth) throw new RangeProofError('the path is longer than the range');
  const leaves = checkedLeaves(hashMany, range, chunk.leaves);
  const wholeInner: Uint8Array[] = [];
  const built = buildSubtree(hashMany, nil, leaves, depth, depth === 0, nodes, wholeInner);
  if (!equalBytes(built, expected)) throw new RangeProofError("the leaves do not rebuild the range's subtree");
  return { leaves, nodes, halves: [], subtree: built, wholeInner };
}

/** A path that ended above the range (at nil or a leaf): the chunk must hold exactly `implied`. */
function endsAt(
  chunk: TrieChunk,
  pathLength: number,
  implied: LeafNode[],
  nodes: VerifiedChunk['nodes'],
): VerifiedChunk {
  if (chunk.split || chunk.path.length !== pathLength)
    throw new RangeProofError('the path does not end where it should');
  const matches =
    chunk.leaves.length === implied.length &&
    chunk.leaves.every((leaf, i) => equalBytes(leaf.key, implied[i]!.key) && equalBytes(leaf.value, implied[i]!.value));
  if (!matches) throw new RangeProofError('the leaves are not the ones the path proves');
  return { leaves: implied, nodes, halves: [], wholeInner: [] };
}

/** The leaves with their key hashes, checked to lie in the range in strictly increasing key-hash order. */
function checkedLeaves(hashMany: HashMany, range: KeyRange, leaves: ChunkLeaf[]): LeafNode[] {
  const keyhashes = hashAll(
    hashMany,
    leaves.map((leaf) => leaf.key),
  );
  const out: LeafNode[] = [];
  leaves.forEach(({ key, value }, i) => {
    const keyhash = keyhashes[i]!;
    if (!inRange(keyhash, range)) throw new RangeProofError('a leaf lies outside the range');
    const previous = out[out.length - 1];
    if (previous && Buffer.compare(previous.keyhash, keyhash) >= 0)
      throw new RangeProofError('the leaves are not in key-hash order');
    out.push({ kind: 'leaf', keyhash, key, value });
  });
  return out;
}

/** An inner node of a subtree being rebuilt: its children are nil, a leaf (by index) or an earlier inner node. */
interface ShapeNode {
  left: ShapeChild;
  right: ShapeChild;
  /** Longest path down to a leaf or nil: nodes of one height are hashed together. */
  height: number;
}
type ShapeChild = { nil: true } | { leaf: number } | { inner: number };

/**
 * The hash of the canonical subtree of `leaves` below bit `bit` (its root is an inner node at the range's bit, a
 * leaf or nil below it); its nodes go to `out`, the hashes of its inner nodes to `inner`. The shape is found first, then every leaf, and the inner nodes a
 * height at a time, are hashed in one call of `hashMany` each.
 */
function buildSubtree(
  hashMany: HashMany,
  nil: Uint8Array,
  leaves: LeafNode[],
  bit: number,
  isRoot: boolean,
  out: VerifiedChunk['nodes'],
  inner: Uint8Array[],
): Uint8Array {
  const inners: ShapeNode[] = [];
  const heightOf = (child: ShapeChild): number => ('inner' in child ? inners[child.inner]!.height : 0);
  const shape = (from: number, to: number, depth: number, root: boolean): ShapeChild => {
    if (!root && from === to) return { nil: true };
    if (!root && to - from === 1) return { leaf: from };
    if (depth >= 256) throw new RangeProofError('two leaves share a key hash');
    let cut = from;
    while (cut < to && bitAt(leaves[cut]!.keyhash, depth) === 0) cut++;
    const left = shape(from, cut, depth + 1, false);
    const right = shape(cut, to, depth + 1, false);
    inners.push({ left, right, height: Math.max(heightOf(left), heightOf(right)) + 1 });
    return { inner: inners.length - 1 };
  };
  const top = shape(0, leaves.length, bit, isRoot);

  const valueHashes = hashAll(
    hashMany,
    leaves.map((leaf) => leaf.value),
  );
  const leafHashes = hashAll(
    hashMany,
    leaves.map((leaf, i) => leafPreimage(leaf.keyhash, valueHashes[i]!)),
  );
  leaves.forEach((leaf, i) => out.push({ hash: leafHashes[i]!, encoded: encodeNode(leaf) }));

  const innerHashes: Uint8Array[] = [];
  const hashOf = (child: ShapeChild): Uint8Array =>
    'nil' in child ? nil : 'leaf' in child ? leafHashes[child.leaf]! : innerHashes[child.inner]!;
  const byHeight: number[][] = [];
  inners.forEach((node, index) => (byHeight[node.height] ??= []).push(index));
  for (const level of byHeight) {
    if (!level) continue;
    const encodings = level.map((index) => innerPreimage(hashOf(inners[index]!.left), hashOf(inners[index]!.right)));
    const hashes = hashAll(hashMany, encodings);
    level.forEach((index, i) => {
      innerHashes[index] = hashes[i]!;
      out.push({ hash: hashes[i]!, encoded: encodings[i]! });
      inner.push(hashes[i]!);
    });
  }
  return hashOf(top);
}
