/**
 * Proving ranges of the state tries (the serving side of protocol/state/range-check.ts, which checks them): the
 * chunk of a range for fast sync and proven reads, and the path alone that proves a range's subtree hash.
 */
import { equalBytes } from '../../../protocol/bytes.js';
import { inRange, type KeyRange, type PathEnd, type TrieChunk } from '../../../protocol/state/range-check.js';
import { bitAt, encodeNode, type LeafNode, type TrieNode } from '../../../protocol/state/trie-node.js';
import type { NodeSource } from './trie.js';

export interface ChunkLimits {
  leaves: number;
  /** Bytes of keys and values; a lone leaf is sent whatever its size. */
  bytes: number;
}

/** A walk from a trie's root down the bits of a target, with the encoded nodes it went through, root first. */
export interface ProvenPath {
  path: Uint8Array[];
  end: PathEnd;
}

/**
 * Walks from `root` down the first `bits` bits of `target` (a range's prefix, or a key hash) as the checking side
 * follows it (`followPath`): to an empty subtree or a leaf above that depth, or to the subtree at that depth.
 */
export function pathTo(nodes: NodeSource, root: Uint8Array, target: Uint8Array, bits: number): ProvenPath {
  const path: Uint8Array[] = [];
  let hash = root;
  for (let depth = 0; depth < bits; depth++) {
    if (equalBytes(hash, nodes.nil)) return { path, end: { kind: 'nil', hash, used: depth } };
    const node = nodes.load(hash);
    path.push(encodeNode(node));
    if (node.kind === 'leaf') return { path, end: { kind: 'leaf', hash, used: depth + 1, leaf: node } };
    hash = bitAt(target, depth) ? node.right : node.left;
  }
  return { path, end: { kind: 'subtree', hash, used: bits } };
}

/** The subtree hash of `range` (as `provenRangeHash` finds it) and the path that proves it. */
export function proveRangeHash(
  nodes: NodeSource,
  root: Uint8Array,
  range: KeyRange,
): ProvenPath & { hash: Uint8Array } {
  const walk = pathTo(nodes, root, range.prefix, range.bits);
  const { end } = walk;
  return { ...walk, hash: end.kind === 'leaf' && !inRange(end.leaf.keyhash, range) ? nodes.nil : end.hash };
}

/** Builds the chunk proving `range` of the trie at `root` (the serving side). */
export function proveRange(nodes: NodeSource, root: Uint8Array, range: KeyRange, limits: ChunkLimits): TrieChunk {
  const { path, end } = pathTo(nodes, root, range.prefix, range.bits);
  if (end.kind === 'leaf') return { path, leaves: inRange(end.leaf.keyhash, range) ? [end.leaf] : [], split: false };
  if (equalBytes(end.hash, nodes.nil)) return { path, leaves: [], split: false };
  const top = nodes.load(end.hash);
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
