/**
 * Reading and updating one authenticated trie, given its root hash. The shape is canonical (docs/protocol.md
 * § State): an empty subtree is nil, one key is a leaf, two or more keys are an inner node splitting on the next key-hash
 * bit, and the root is always an inner node at bit 0 — so the root hash depends only on the set of (key, value) pairs,
 * whatever the order of inserts and deletes.
 */
import { equalBytes } from '../../../protocol/bytes.js';
import {
  bitAt,
  encodeNode,
  hashAll,
  hashEachWith,
  innerHash,
  innerPreimage,
  leafHashes,
  type HashMany,
  type Hasher,
  type LeafNode,
  type TrieNode,
} from '../../../protocol/state/trie-node.js';

/** Where nodes are read from and new nodes are written to. */
export interface NodeSource {
  readonly hash: Hasher;
  /** The same hash, many messages per call: an update hashes its new nodes a level at a time (one call each without). */
  readonly hashMany?: HashMany;
  readonly nil: Uint8Array;
  load(hash: Uint8Array): TrieNode;
  /** The nodes of many hashes at once (one read of the store for those not at hand). */
  loadMany(hashes: Uint8Array[]): TrieNode[];
  /** As loadMany, reading the store off the main thread; what it read is at hand for the next loads. */
  fetchMany(hashes: Uint8Array[]): Promise<TrieNode[]>;
  /** Records a newly created node (written with the commit). */
  save(hash: Uint8Array, node: TrieNode, encoded: Uint8Array): void;
}

export interface TrieChange {
  keyhash: Uint8Array;
  key: Uint8Array;
  /** New value, or null to delete. */
  value: Uint8Array | null;
}

/**
 * A node an update creates. Its hash is taken once the update has built every new node: all the new leaves in one call
 * of the hash, then the new inner nodes a depth at a time, deepest first (a node's children are deeper than it).
 */
type NewNode = { kind: 'leaf'; leaf: LeafNode; hash?: Uint8Array } | NewInner;
interface NewInner {
  kind: 'inner';
  left: NodeRef;
  right: NodeRef;
  depth: number;
  hash?: Uint8Array;
}
/** A stored node by its hash, or a node the update is creating. */
type NodeRef = Uint8Array | NewNode;

/** The nodes one update creates, in the order they were made. */
interface Created {
  leaves: (NewNode & { kind: 'leaf' })[];
  inner: NewInner[];
}

/**
 * A subtree after an update: its node, and the leaf itself when it is a single leaf (so a parent can pull it up). A
 * stored subtree the update left alone is not loaded to find out: only a sibling that became empty needs to know.
 */
interface Subtree {
  ref: NodeRef;
  leaf?: LeafNode;
  empty: boolean;
  /** An unchanged stored subtree, whose node tells whether it is a single leaf. */
  stored?: boolean;
}

const hashOf = (ref: NodeRef): Uint8Array => (ref instanceof Uint8Array ? ref : ref.hash!);

const MAX_DEPTH = 256;

/** Paths (indices of key hashes) walked down together, at the node of `hash`. */
interface PathGroup {
  hash: Uint8Array;
  paths: number[];
}

export class Trie {
  constructor(
    private readonly nodes: NodeSource,
    readonly root: Uint8Array,
  ) {}

  static emptyRoot(nodes: NodeSource): Uint8Array {
    return innerHash(nodes.hash, nodes.nil, nodes.nil);
  }

  private isNil(hash: Uint8Array): boolean {
    return equalBytes(hash, this.nodes.nil);
  }

  /** The leaf holding `keyhash`, and the number of inner nodes above it. */
  private findLeaf(keyhash: Uint8Array): { leaf: LeafNode; depth: number } | undefined {
    let hash = this.root;
    for (let depth = 0; depth < MAX_DEPTH; depth++) {
      if (this.isNil(hash)) return undefined;
      const node = this.nodes.load(hash);
      if (node.kind === 'leaf') return equalBytes(node.keyhash, keyhash) ? { leaf: node, depth } : undefined;
      hash = bitAt(keyhash, depth) ? node.right : node.left;
    }
    return undefined;
  }

  get(keyhash: Uint8Array): Uint8Array | undefined {
    return this.findLeaf(keyhash)?.leaf.value;
  }

  /**
   * The values of many key hashes (undefined where absent), found by walking their paths together a level at a time:
   * a node many paths share is loaded once, and each level's nodes come in one read of the store.
   */
  getMany(keyhashes: readonly Uint8Array[]): (Uint8Array | undefined)[] {
    const values = new Array<Uint8Array | undefined>(keyhashes.length);
    let level = this.firstLevel(keyhashes);
    for (let depth = 0; level.length > 0 && depth < MAX_DEPTH; depth++) {
      const live = level.filter(({ hash }) => !this.isNil(hash));
      level = this.descend(keyhashes, depth, live, this.nodes.loadMany(live.map(({ hash }) => hash)), values);
    }
    return values;
  }

  /**
   * Reads the nodes an update of `changes` walks ahead, off the main thread, a level at a time, so that the update finds
   * them at hand: the paths of the changed keys and, beside a deleted key's path, the siblings a deletion may pull up.
   */
  async fetchPaths(changes: readonly TrieChange[]): Promise<void> {
    const keyhashes = changes.map((change) => change.keyhash);
    // Only deletions pull siblings up; without any, no group needs asking.
    const deleting = changes.some((change) => change.value === null)
      ? (path: number): boolean => changes[path]!.value === null
      : undefined;
    let level = this.firstLevel(keyhashes);
    for (let depth = 0; level.length > 0 && depth < MAX_DEPTH; depth++) {
      const live = level.filter(({ hash }) => !this.isNil(hash));
      const nodes = await this.nodes.fetchMany(live.map(({ hash }) => hash));
      level = this.descend(keyhashes, depth, live, nodes, undefined, deleting);
    }
  }

  private firstLevel(keyhashes: readonly Uint8Array[]): PathGroup[] {
    return [{ hash: this.root, paths: keyhashes.map((_, i) => i) }];
  }

  /**
   * One level of walking many paths down together: `live` are the groups of paths at `depth` and `nodes` their nodes;
   * returns the groups of the next level. Where a path ends at its leaf, the value goes into `values`. Beside a path
   * `withSiblings` selects, the sibling subtree is a group of the next level too (with no path of its own).
   */
  private descend(
    keyhashes: readonly Uint8Array[],
    depth: number,
    live: readonly PathGroup[],
    nodes: readonly TrieNode[],
    values?: (Uint8Array | undefined)[],
    withSiblings?: (path: number) => boolean,
  ): PathGroup[] {
    const next: PathGroup[] = [];
    live.forEach(({ paths }, i) => {
      const node = nodes[i]!;
      if (node.kind === 'leaf') {
        if (values) for (const path of paths) if (equalBytes(node.keyhash, keyhashes[path]!)) values[path] = node.value;
        return;
      }
      const left: number[] = [];
      const right: number[] = [];
      for (const path of paths) (bitAt(keyhashes[path]!, depth) ? right : left).push(path);
      const both = withSiblings !== undefined && paths.some(withSiblings);
      if (left.length > 0 || both) next.push({ hash: node.left, paths: left });
      if (right.length > 0 || both) next.push({ hash: node.right, paths: right });
    });
    return next;
  }

  /** Number of inner nodes on the key's path (the `bits` GetEncryptedBalance reports), or undefined if absent. */
  depth(keyhash: Uint8Array): number | undefined {
    return this.findLeaf(keyhash)?.depth;
  }

  /**
   * The leaf whose key hash starts with `prefix` (reference §4.1 GetKeyValueFromHash): walks down by the prefix bits
   * and fails if the walk needs more bits than the prefix has.
   */
  findByKeyHashPrefix(prefix: Uint8Array): LeafNode | undefined {
    let hash = this.root;
    for (let depth = 0; depth <= prefix.length * 8; depth++) {
      if (this.isNil(hash)) return undefined;
      const node = this.nodes.load(hash);
      if (node.kind === 'leaf') return equalBytes(node.keyhash.subarray(0, prefix.length), prefix) ? node : undefined;
      if (depth === prefix.length * 8) return undefined;
      hash = bitAt(prefix, depth) ? node.right : node.left;
    }
    return undefined;
  }

  /** Every (key, value) in key-hash order. */
  *entries(): Generator<LeafNode> {
    const stack = [this.root];
    while (stack.length > 0) {
      const hash = stack.pop()!;
      if (this.isNil(hash)) continue;
      const node = this.nodes.load(hash);
      if (node.kind === 'leaf') yield node;
      else stack.push(node.right, node.left);
    }
  }

  /**
   * The leaves this trie holds that the trie of `baseRoot` (from the same node source) does not hold with the same
   * value: what was added or changed since. Subtrees the two share are skipped without being loaded.
   */
  changedSince(baseRoot: Uint8Array): LeafNode[] {
    const base = new Trie(this.nodes, baseRoot);
    const changed: LeafNode[] = [];
    // A level at a time, each level's nodes (and the base's beside them) loaded together: a whole trie read after a
    // snapshot's import (the balance index's build) takes a store read per level, not one per node.
    let level: { hash: Uint8Array; baseHash: Uint8Array | undefined }[] = [{ hash: this.root, baseHash: baseRoot }];
    for (let depth = 0; level.length > 0; depth++) {
      const differing = level.filter(
        ({ hash, baseHash }) => !this.isNil(hash) && !(baseHash && equalBytes(hash, baseHash)),
      );
      const nodes = this.nodes.loadMany(differing.map(({ hash }) => hash));
      const paired = differing.flatMap(({ baseHash }, i) =>
        nodes[i]!.kind === 'inner' && baseHash && !this.isNil(baseHash) ? [i] : [],
      );
      const baseNodes = new Map(
        this.nodes.loadMany(paired.map((i) => differing[i]!.baseHash!)).map((node, j) => [paired[j]!, node]),
      );
      const next: typeof level = [];
      nodes.forEach((node, i) => {
        if (node.kind === 'leaf') {
          const before = base.get(node.keyhash);
          if (!before || !equalBytes(before, node.value)) changed.push(node);
          return;
        }
        if (depth >= MAX_DEPTH) return;
        const baseNode = baseNodes.get(i);
        const pair = baseNode?.kind === 'inner' ? baseNode : undefined;
        next.push({ hash: node.left, baseHash: pair?.left }, { hash: node.right, baseHash: pair?.right });
      });
      level = next;
    }
    return changed;
  }

  /** Applies changes (at most one per key) and returns the new root; new nodes go to the node source. */
  update(changes: TrieChange[]): Uint8Array {
    if (changes.length === 0) return this.root;
    const root = this.nodes.load(this.root);
    if (root.kind !== 'inner') throw new Error('a trie root must be an inner node');
    const created: Created = { leaves: [], inner: [] };
    const [left, right] = this.split(changes, 0);
    // The root stays an inner node whatever its children become.
    const top = this.newInner(
      created,
      this.apply(created, root.left, 1, left).ref,
      this.apply(created, root.right, 1, right).ref,
      0,
    );
    this.hashAndSave(created);
    return hashOf(top);
  }

  private split<C extends TrieChange>(changes: C[], bit: number): [C[], C[]] {
    const left: C[] = [];
    const right: C[] = [];
    for (const change of changes) (bitAt(change.keyhash, bit) ? right : left).push(change);
    return [left, right];
  }

  private apply(created: Created, hash: Uint8Array, bit: number, changes: TrieChange[]): Subtree {
    if (changes.length === 0) return this.describe(hash);
    if (this.isNil(hash)) return this.build(created, changes.filter((c) => c.value !== null) as LeafChange[], bit);
    const node = this.nodes.load(hash);
    if (node.kind === 'leaf') {
      const replaced = changes.some((c) => equalBytes(c.keyhash, node.keyhash));
      const kept: LeafChange[] = replaced ? [] : [{ keyhash: node.keyhash, key: node.key, value: node.value }];
      return this.build(created, [...kept, ...(changes.filter((c) => c.value !== null) as LeafChange[])], bit);
    }
    const [left, right] = this.split(changes, bit);
    return this.join(
      created,
      this.apply(created, node.left, bit + 1, left),
      this.apply(created, node.right, bit + 1, right),
      bit,
    );
  }

  /** A stored subtree the update leaves alone. */
  private describe(hash: Uint8Array): Subtree {
    return this.isNil(hash) ? { ref: hash, empty: true } : { ref: hash, empty: false, stored: true };
  }

  /** The subtree's single leaf, or undefined when it holds none or more than one. */
  private leafOf(subtree: Subtree): LeafNode | undefined {
    if (subtree.leaf || !subtree.stored) return subtree.leaf;
    const node = this.nodes.load(subtree.ref as Uint8Array);
    return node.kind === 'leaf' ? node : undefined;
  }

  /** A canonical subtree holding exactly `entries`. */
  private build(created: Created, entries: LeafChange[], bit: number): Subtree {
    if (entries.length === 0) return { ref: this.nodes.nil, empty: true };
    if (entries.length === 1) {
      const { keyhash, key, value } = entries[0]!;
      const leaf: LeafNode = { kind: 'leaf', keyhash, key, value };
      const ref = { kind: 'leaf' as const, leaf };
      created.leaves.push(ref);
      return { ref, leaf, empty: false };
    }
    if (bit >= MAX_DEPTH) throw new Error('two different keys with the same key hash');
    const [left, right] = this.split(entries, bit);
    const ref = this.newInner(
      created,
      this.build(created, left, bit + 1).ref,
      this.build(created, right, bit + 1).ref,
      bit,
    );
    return { ref, empty: false };
  }

  /** Joins two updated children, collapsing to nil or a lone leaf as the canonical shape requires. */
  private join(created: Created, left: Subtree, right: Subtree, bit: number): Subtree {
    if (left.empty && right.empty) return { ref: this.nodes.nil, empty: true };
    const lone = left.empty ? this.leafOf(right) : right.empty ? this.leafOf(left) : undefined;
    if (lone) return { ref: left.empty ? right.ref : left.ref, leaf: lone, empty: false };
    return { ref: this.newInner(created, left.ref, right.ref, bit), empty: false };
  }

  private newInner(created: Created, left: NodeRef, right: NodeRef, depth: number): NewInner {
    const node: NewInner = { kind: 'inner', left, right, depth };
    created.inner.push(node);
    return node;
  }

  /** Hashes the update's new nodes, a call of the hash per level, and hands them to the node source. */
  private hashAndSave({ leaves, inner }: Created): void {
    const hashMany = this.nodes.hashMany ?? hashEachWith(this.nodes.hash);
    const hashes = leafHashes(
      hashMany,
      leaves.map(({ leaf }) => leaf),
    );
    leaves.forEach((created, i) => {
      created.hash = hashes[i]!;
      this.nodes.save(created.hash, created.leaf, encodeNode(created.leaf));
    });
    const byDepth: NewInner[][] = [];
    for (const node of inner) (byDepth[node.depth] ??= []).push(node);
    for (let depth = byDepth.length - 1; depth >= 0; depth--) {
      const level = byDepth[depth] ?? [];
      // An inner node's encoding is its hash preimage.
      const encodings = level.map(({ left, right }) => innerPreimage(hashOf(left), hashOf(right)));
      hashAll(hashMany, encodings).forEach((hash, i) => {
        const created = level[i]!;
        created.hash = hash;
        this.nodes.save(
          hash,
          { kind: 'inner', left: hashOf(created.left), right: hashOf(created.right) },
          encodings[i]!,
        );
      });
    }
  }
}

type LeafChange = TrieChange & { value: Uint8Array };
