/**
 * Checking range proofs of the state tries (docs/protocol.md § State snapshots, § Proven reads). A range is every leaf
 * of one trie whose key hash starts with a bit prefix. A chunk proves it: the encoded nodes on the path from the trie's
 * root down to the range (each must hash to the hash its parent names), then the range's leaves, which rebuild the
 * range's canonical subtree — whose hash must be the one the path ends at. A range too big for one chunk is answered
 * with its inner node instead (a `split`), and its two halves are asked for next. A path alone proves the range's
 * subtree hash. The proving side is the consensus plugin's.
 */
import { equalBytes } from '../bytes.js';
import { UmbraError } from '../../core-native/ts/errors.js';
import {
  bitAt,
  decodeNode,
  encodeNode,
  hashAll,
  hashEachWith,
  innerHash,
  innerPreimage,
  leafHash,
  leafHashes,
  nilHash,
  type HashMany,
  type Hasher,
  type LeafNode,
  type TrieNode,
} from './trie-node.js';

/** Deepest range one may name: far below any real trie's depth, and a bound on a chunk's path. */
export const MAX_RANGE_BITS = 96;

/** The leaves of one trie whose key hash starts with the first `bits` bits of `prefix`. */
export interface KeyRange {
  bits: number;
  prefix: Uint8Array;
}

export interface ChunkLeaf {
  key: Uint8Array;
  value: Uint8Array;
}

export interface TrieChunk {
  /** Encoded nodes from the trie's root towards the range, root first. */
  path: Uint8Array[];
  /** The range's leaves in key-hash order (none when `split`). */
  leaves: ChunkLeaf[];
  /** The range is larger than one chunk: `path` ends with its inner node, and its halves are to be asked for. */
  split: boolean;
}

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
  /** The range's subtree hash, however the chunk proved it (see `provenRangeHash`). */
  rangeHash: Uint8Array;
}

export const RangeProofErrorCode = {
  MalformedRange: 'range-proof.malformed-range',
  /** A path node missing, extra, undecodable, or not the node its parent names. */
  BadPath: 'range-proof.bad-path',
  BadSplit: 'range-proof.bad-split',
  LeafOutsideRange: 'range-proof.leaf-outside-range',
  LeavesOutOfOrder: 'range-proof.leaves-out-of-order',
  /** Leaves that are not the range's: one changed, left out or added. */
  WrongLeaves: 'range-proof.wrong-leaves',
} as const;
export type RangeProofErrorCode = (typeof RangeProofErrorCode)[keyof typeof RangeProofErrorCode];

/** A chunk or path that does not prove what it claims. */
export class RangeProofError extends UmbraError<RangeProofErrorCode> {
  override readonly name = 'RangeProofError';
}

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

export function inRange(keyhash: Uint8Array, range: KeyRange): boolean {
  for (let bit = 0; bit < range.bits; bit++) if (bitAt(keyhash, bit) !== bitAt(range.prefix, bit)) return false;
  return true;
}

/**
 * Where a walk from a trie's root down the bits of a target stops: at an empty subtree or a leaf above the target
 * depth, or at the subtree it reaches at that depth (whose node the walk does not open). `hash` is the hash of what it
 * stops at; `used` the number of path nodes the walk went through (a leaf it stops at included).
 */
export type PathEnd =
  | { kind: 'nil'; hash: Uint8Array; used: number }
  | { kind: 'leaf'; hash: Uint8Array; used: number; leaf: LeafNode }
  | { kind: 'subtree'; hash: Uint8Array; used: number };

function nodeHash(hash: Hasher, node: TrieNode): Uint8Array {
  return node.kind === 'inner' ? innerHash(hash, node.left, node.right) : leafHash(hash, node.keyhash, node.value);
}

/** Path node `index`, decoded and checked to hash to `expected`; it goes to `nodes` when given. */
function checkedNode(
  hash: Hasher,
  path: readonly Uint8Array[],
  index: number,
  expected: Uint8Array,
  nodes?: VerifiedChunk['nodes'],
): TrieNode {
  const encoded = path[index];
  if (!encoded) throw new RangeProofError(RangeProofErrorCode.BadPath, `the path stops at depth ${index}`);
  let node: TrieNode;
  try {
    node = decodeNode(encoded);
  } catch {
    throw new RangeProofError(RangeProofErrorCode.BadPath, `path node ${index} does not decode`);
  }
  const computed = nodeHash(hash, node);
  if (!equalBytes(computed, expected))
    throw new RangeProofError(RangeProofErrorCode.BadPath, `path node ${index} is not the one its parent names`);
  nodes?.push({ hash: computed, encoded });
  return node;
}

/**
 * Follows `path` from `root` down the first `bits` bits of `target` (a range's prefix, or a key hash), checking every
 * node against the hash its parent names; the hash of every node is computed here, never taken from the sender.
 */
export function followPath(
  hash: Hasher,
  root: Uint8Array,
  target: Uint8Array,
  bits: number,
  path: readonly Uint8Array[],
  nodes?: VerifiedChunk['nodes'],
): PathEnd {
  const nil = nilHash(hash);
  let expected = root;
  for (let depth = 0; depth < bits; depth++) {
    if (equalBytes(expected, nil)) return { kind: 'nil', hash: nil, used: depth };
    const node = checkedNode(hash, path, depth, expected, nodes);
    if (node.kind === 'leaf') return { kind: 'leaf', hash: expected, used: depth + 1, leaf: node };
    expected = bitAt(target, depth) ? node.right : node.left;
  }
  return { kind: 'subtree', hash: expected, used: bits };
}

/**
 * The hash of a range's canonical subtree — a function of the range's (key, value) pairs alone: nil when it is empty,
 * the leaf when it holds one, else the inner node at its depth (at the root, always the root) — from where the path
 * towards it ends.
 */
function rangeHashAt(end: PathEnd, range: KeyRange, nil: Uint8Array): Uint8Array {
  return end.kind === 'leaf' && !inRange(end.leaf.keyhash, range) ? nil : end.hash;
}

/** The subtree hash of `range` in the trie at `root`, proven by `path` alone (the nodes from the root to the range). */
export function provenRangeHash(
  hash: Hasher,
  root: Uint8Array,
  range: KeyRange,
  path: readonly Uint8Array[],
): Uint8Array {
  if (!isWellFormed(range)) throw new RangeProofError(RangeProofErrorCode.MalformedRange, 'the range is malformed');
  const end = followPath(hash, root, range.prefix, range.bits, path);
  if (path.length !== end.used)
    throw new RangeProofError(RangeProofErrorCode.BadPath, 'the path does not end where it should');
  return rangeHashAt(end, range, nilHash(hash));
}

/**
 * Checks a chunk for `range` of the trie whose root is `root` (the syncing side); throws a RangeProofError naming what
 * is wrong. The leaves' subtree is hashed with `hashMany`, a level at a time.
 */
export function verifyRange(
  hash: Hasher,
  root: Uint8Array,
  range: KeyRange,
  chunk: TrieChunk,
  hashMany: HashMany = hashEachWith(hash),
): VerifiedChunk {
  if (!isWellFormed(range)) throw new RangeProofError(RangeProofErrorCode.MalformedRange, 'the range is malformed');
  const nil = nilHash(hash);
  const nodes: VerifiedChunk['nodes'] = [];
  const end = followPath(hash, root, range.prefix, range.bits, chunk.path, nodes);
  const rangeHash = rangeHashAt(end, range, nil);
  if (end.kind === 'nil') return endsAt(chunk, end.used, [], nodes, rangeHash);
  if (end.kind === 'leaf')
    return endsAt(chunk, end.used, inRange(end.leaf.keyhash, range) ? [end.leaf] : [], nodes, rangeHash);
  const depth = range.bits;
  if (chunk.split) {
    if (chunk.path.length !== depth + 1 || chunk.leaves.length > 0)
      throw new RangeProofError(RangeProofErrorCode.BadSplit, 'a malformed split');
    const node = checkedNode(hash, chunk.path, depth, end.hash, nodes);
    if (node.kind !== 'inner')
      throw new RangeProofError(RangeProofErrorCode.BadSplit, 'a split of a range that is not an inner node');
    const halves = halvesOf(range)
      .map((half, side) => ({ range: half, hash: side ? node.right : node.left }))
      .filter((half) => !equalBytes(half.hash, nil));
    return { leaves: [], nodes, halves, wholeInner: [], rangeHash };
  }
  if (chunk.path.length !== depth)
    throw new RangeProofError(RangeProofErrorCode.BadPath, 'the path is longer than the range');
  const leaves = checkedLeaves(hashMany, range, chunk.leaves);
  const wholeInner: Uint8Array[] = [];
  const built = buildSubtree(hashMany, nil, leaves, depth, depth === 0, nodes, wholeInner);
  if (!equalBytes(built, end.hash))
    throw new RangeProofError(RangeProofErrorCode.WrongLeaves, "the leaves do not rebuild the range's subtree");
  return { leaves, nodes, halves: [], subtree: built, wholeInner, rangeHash };
}

/** A path that ended above the range (at nil or a leaf): the chunk must hold exactly `implied`. */
function endsAt(
  chunk: TrieChunk,
  pathLength: number,
  implied: LeafNode[],
  nodes: VerifiedChunk['nodes'],
  rangeHash: Uint8Array,
): VerifiedChunk {
  if (chunk.split || chunk.path.length !== pathLength)
    throw new RangeProofError(RangeProofErrorCode.BadPath, 'the path does not end where it should');
  const matches =
    chunk.leaves.length === implied.length &&
    chunk.leaves.every((leaf, i) => equalBytes(leaf.key, implied[i]!.key) && equalBytes(leaf.value, implied[i]!.value));
  if (!matches)
    throw new RangeProofError(RangeProofErrorCode.WrongLeaves, 'the leaves are not the ones the path proves');
  return { leaves: implied, nodes, halves: [], wholeInner: [], rangeHash };
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
    if (!inRange(keyhash, range))
      throw new RangeProofError(RangeProofErrorCode.LeafOutsideRange, 'a leaf lies outside the range');
    const previous = out[out.length - 1];
    if (previous && Buffer.compare(previous.keyhash, keyhash) >= 0)
      throw new RangeProofError(RangeProofErrorCode.LeavesOutOfOrder, 'the leaves are not in key-hash order');
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
    if (depth >= 256) throw new RangeProofError(RangeProofErrorCode.WrongLeaves, 'two leaves share a key hash');
    let cut = from;
    while (cut < to && bitAt(leaves[cut]!.keyhash, depth) === 0) cut++;
    const left = shape(from, cut, depth + 1, false);
    const right = shape(cut, to, depth + 1, false);
    inners.push({ left, right, height: Math.max(heightOf(left), heightOf(right)) + 1 });
    return { inner: inners.length - 1 };
  };
  const top = shape(0, leaves.length, bit, isRoot);

  const leafDigests = leafHashes(hashMany, leaves);
  leaves.forEach((leaf, i) => out.push({ hash: leafDigests[i]!, encoded: encodeNode(leaf) }));

  const innerHashes: Uint8Array[] = [];
  const hashOf = (child: ShapeChild): Uint8Array =>
    'nil' in child ? nil : 'leaf' in child ? leafDigests[child.leaf]! : innerHashes[child.inner]!;
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
