/**
 * The versioned state: many named tries (a balance trie per asset, one per contract, ...) whose roots are the values
 * of one meta trie; the meta trie's root is the state root (`treehash`, and the root every block header commits to).
 * Each commit creates a new version number; every version stays readable, since nodes are immutable and shared.
 * A commit writes nothing itself: its nodes and version record go into the caller's WriteBatch, so a block and its
 * state land in one atomic write, and a batch that is never written leaves every version as it was.
 *
 * Keys in the store:  s n <node hash> → node      s v <version 8 B> → state root      s V → latest version (8 B)
 *                     s C <subtree hash> → (empty)  a subtree a snapshot import stored whole (snapshots.ts)
 * Pruning (state-pruner.ts) drops old version records and then the nodes no remaining version reaches, with the
 * held-whole marks of the subtrees those nodes were the roots of.
 */
import { NodeFault } from '../../../core-native/ts/errors.js';
import { ByteReader, ByteWriter, equalBytes, toHex } from '../../../protocol/bytes.js';
import type { KeyValueStore, WriteBatch } from '../../../host/storage/kv-store.js';
import { Trie, type NodeSource, type TrieChange } from './trie.js';
import { LeafReads } from './leaf-reads.js';
import { fillMissing, fillMissingAsync } from './missing-reads.js';
import { NodeCache } from './node-cache.js';
import {
  cacheKey,
  decodeNode,
  hashEachWith,
  innerHash,
  nilHash,
  type HashMany,
  type Hasher,
  type LeafNode,
  type TrieNode,
} from '../../../protocol/state/trie-node.js';

const NODE_PREFIX = new TextEncoder().encode('sn');
const VERSION_PREFIX = new TextEncoder().encode('sv');
const LATEST_KEY = new TextEncoder().encode('sV');
export const HELD_WHOLE_PREFIX = new TextEncoder().encode('sC');
/** What the cache of stored trie nodes may hold (node-cache.ts): ≈ 850 000 inner nodes. */
const NODE_CACHE_BYTES = 96 * 1024 * 1024;

const withPrefix = (prefix: Uint8Array, suffix: Uint8Array): Uint8Array => {
  const key = new Uint8Array(prefix.length + suffix.length);
  key.set(prefix);
  key.set(suffix, prefix.length);
  return key;
};
const u64 = (value: bigint): Uint8Array => new ByteWriter().u64be(value).finish();
/** Where a node is stored (snapshot imports write nodes directly). */
export const nodeStoreKey = (hash: Uint8Array): Uint8Array => withPrefix(NODE_PREFIX, hash);
/** Where the mark of a subtree held whole is stored, and the prefix of every mark. */
export const heldWholeKey = (hash: Uint8Array): Uint8Array => withPrefix(HELD_WHOLE_PREFIX, hash);

export const StateErrorCode = {
  /** A node a kept state reaches is not in the store: the database is damaged, or a state was pruned under a reader. */
  NodeMissing: 'state.node-missing',
  /** A write through a persisted (read-only) state. */
  ReadOnly: 'state.read-only',
  UnknownVersion: 'state.unknown-version',
} as const;
export type StateErrorCode = (typeof StateErrorCode)[keyof typeof StateErrorCode];

export class StateError extends NodeFault<StateErrorCode> {
  override readonly name = 'StateError';
}

/** Read-only view of one trie at one version. */
export interface TreeReader {
  readonly root: Uint8Array;
  get(key: Uint8Array): Uint8Array | undefined;
  /** The values of many keys at once (cheaper than one by one: shared paths, batched store reads). */
  getMany(keys: readonly Uint8Array[]): (Uint8Array | undefined)[];
  depth(key: Uint8Array): number | undefined;
  findByKeyHashPrefix(prefix: Uint8Array): LeafNode | undefined;
  entries(): Iterable<LeafNode>;
}

export interface TreeWriter extends TreeReader {
  put(key: Uint8Array, value: Uint8Array): void;
  delete(key: Uint8Array): void;
}

/**
 * The nodes already persisted (with a cache), plus the ones created by commits not yet written. The cache holds
 * encodings (node-cache.ts), so a hit decodes again (into copies: nothing handed out keeps the cache's memory alive),
 * cheap next to a store read, and it keeps the heap small.
 */
class PersistedNodes implements NodeSource {
  readonly nil: Uint8Array;
  private readonly cache: NodeCache;
  /** The empty trie's root (an inner node with two nil children) is known without being stored. */
  private readonly emptyRoot: Uint8Array;
  private readonly emptyRootNode: TrieNode;

  constructor(
    private readonly store: KeyValueStore,
    readonly hash: Hasher,
    readonly hashMany: HashMany,
    cacheBytes: number,
  ) {
    this.cache = new NodeCache(cacheBytes);
    this.nil = nilHash(hash);
    this.emptyRoot = innerHash(hash, this.nil, this.nil);
    this.emptyRootNode = { kind: 'inner', left: this.nil, right: this.nil };
  }

  load(hash: Uint8Array): TrieNode {
    const cached = this.cached(hash);
    if (cached) return cached;
    const bytes = this.store.getSync(withPrefix(NODE_PREFIX, hash));
    if (!bytes) throw new StateError(StateErrorCode.NodeMissing, `state node ${toHex(hash)} is missing from the store`);
    this.cache.set(hash, bytes);
    return decodeNode(bytes);
  }

  loadMany(hashes: Uint8Array[]): TrieNode[] {
    return fillMissing(
      hashes.map((hash) => this.cached(hash)),
      (missing) => this.keep(hashes, missing, this.store.getManySync(this.storeKeys(hashes, missing))),
    );
  }

  fetchMany(hashes: Uint8Array[]): Promise<TrieNode[]> {
    return fillMissingAsync(
      hashes.map((hash) => this.cached(hash)),
      async (missing) => this.keep(hashes, missing, await this.store.getMany(this.storeKeys(hashes, missing))),
    );
  }

  private storeKeys(hashes: Uint8Array[], missing: number[]): Uint8Array[] {
    return missing.map((i) => withPrefix(NODE_PREFIX, hashes[i]!));
  }

  /** The nodes read for `hashes[missing[j]]`, cached. */
  private keep(hashes: Uint8Array[], missing: number[], stored: (Uint8Array | undefined)[]): TrieNode[] {
    return missing.map((i, j) => {
      const bytes = stored[j];
      if (!bytes)
        throw new StateError(StateErrorCode.NodeMissing, `state node ${toHex(hashes[i]!)} is missing from the store`);
      this.cache.set(hashes[i]!, bytes);
      return decodeNode(bytes);
    });
  }

  private cached(hash: Uint8Array): TrieNode | undefined {
    const encoded = this.cache.get(hash);
    if (encoded) return decodeNode(encoded);
    return equalBytes(hash, this.emptyRoot) ? this.emptyRootNode : undefined;
  }

  remember(hash: Uint8Array, encoded: Uint8Array): void {
    this.cache.set(hash, encoded);
  }

  save(): void {
    throw new StateError(StateErrorCode.ReadOnly, 'persisted nodes are read-only; commit through a writable state');
  }
}

/** Nodes created during one commit: readable at once, written to the batch. */
class CommitNodes implements NodeSource {
  readonly created = new Map<string, { hash: Uint8Array; node: TrieNode; encoded: Uint8Array }>();

  constructor(private readonly base: PersistedNodes) {}

  get hash(): Hasher {
    return this.base.hash;
  }

  get hashMany(): HashMany {
    return this.base.hashMany;
  }

  get nil(): Uint8Array {
    return this.base.nil;
  }

  load(hash: Uint8Array): TrieNode {
    return this.created.get(cacheKey(hash))?.node ?? this.base.load(hash);
  }

  loadMany(hashes: Uint8Array[]): TrieNode[] {
    return fillMissing(
      hashes.map((hash) => this.created.get(cacheKey(hash))?.node),
      (missing) => this.base.loadMany(missing.map((i) => hashes[i]!)),
    );
  }

  fetchMany(hashes: Uint8Array[]): Promise<TrieNode[]> {
    return fillMissingAsync(
      hashes.map((hash) => this.created.get(cacheKey(hash))?.node),
      (missing) => this.base.fetchMany(missing.map((i) => hashes[i]!)),
    );
  }

  save(hash: Uint8Array, node: TrieNode, encoded: Uint8Array): void {
    this.created.set(cacheKey(hash), { hash, node, encoded });
  }
}

function treeReader(trie: Trie, hash: Hasher, reads: LeafReads | undefined): TreeReader {
  return {
    root: trie.root,
    get: (key) => (reads ? reads.get(trie.root, key, () => trie.get(hash(key))) : trie.get(hash(key))),
    getMany: (keys) => {
      const readMany = (unknown: readonly Uint8Array[]) => trie.getMany(unknown.map(hash));
      return reads ? reads.getMany(trie.root, keys, readMany) : readMany(keys);
    },
    depth: (key) => trie.depth(hash(key)),
    findByKeyHashPrefix: (prefix) => trie.findByKeyHashPrefix(prefix),
    entries: () => trie.entries(),
  };
}

export class StateSnapshot {
  private readonly meta: Trie;

  constructor(
    private readonly nodes: NodeSource,
    readonly version: bigint,
    readonly root: Uint8Array,
    /** Where values read are remembered (none: every read walks the trie). */
    private readonly reads?: LeafReads,
  ) {
    this.meta = new Trie(nodes, root);
  }

  /** Root of a named trie at this version (the empty root when the trie has no entries). */
  treeRoot(name: Uint8Array): Uint8Array {
    const read = (): Uint8Array | undefined => this.meta.get(this.nodes.hash(name));
    return (this.reads ? this.reads.get(this.root, name, read) : read()) ?? Trie.emptyRoot(this.nodes);
  }

  tree(name: Uint8Array): TreeReader {
    return treeReader(new Trie(this.nodes, this.treeRoot(name)), this.nodes.hash, this.reads);
  }

  /**
   * Every leaf of the tries `named` selects that this state holds and `base` does not hold with the same value (what
   * was added or changed since `base`; against the empty state, everything), with the name of its trie.
   */
  changedLeaves(base: StateSnapshot, named: (name: Uint8Array) => boolean): { name: Uint8Array; leaf: LeafNode }[] {
    const changed: { name: Uint8Array; leaf: LeafNode }[] = [];
    for (const tree of this.meta.changedSince(base.root)) {
      if (!named(tree.key)) continue;
      for (const leaf of new Trie(this.nodes, tree.value).changedSince(base.treeRoot(tree.key)))
        changed.push({ name: tree.key, leaf });
    }
    return changed;
  }

  /** Names of every non-empty trie. */
  treeNames(): Uint8Array[] {
    return [...this.meta.entries()].map((leaf) => leaf.key);
  }
}

export class WritableState {
  private readonly changes = new Map<string, { name: Uint8Array; byKey: Map<string, TrieChange> }>();
  /** The new nodes and root of the changes so far, computed by the first commit and reused by the next ones. */
  private computed: { root: Uint8Array; nodes: CommitNodes } | undefined;

  constructor(
    private readonly db: StateDb,
    private readonly base: StateSnapshot,
  ) {}

  get baseVersion(): bigint {
    return this.base.version;
  }

  tree(name: Uint8Array): TreeWriter {
    const hash = this.db.hasher;
    const nameKey = cacheKey(name);
    const base = this.base.tree(name);
    const pending = (): Map<string, TrieChange> => {
      this.computed = undefined;
      let entry = this.changes.get(nameKey);
      if (!entry) this.changes.set(nameKey, (entry = { name: Uint8Array.from(name), byKey: new Map() }));
      return entry.byKey;
    };
    const overlay = (key: Uint8Array): TrieChange | undefined => this.changes.get(nameKey)?.byKey.get(cacheKey(key));
    return {
      get root(): Uint8Array {
        return base.root;
      },
      get: (key) => {
        const change = overlay(key);
        return change ? (change.value ?? undefined) : base.get(key);
      },
      getMany: (keys) => {
        const changes = keys.map(overlay);
        const unchanged = keys.filter((_, i) => !changes[i]);
        const stored = unchanged.length > 0 ? base.getMany(unchanged) : [];
        let next = 0;
        return changes.map((change) => (change ? (change.value ?? undefined) : stored[next++]));
      },
      depth: (key) => base.depth(key),
      findByKeyHashPrefix: (prefix) => base.findByKeyHashPrefix(prefix),
      entries: () => base.entries(),
      put: (key, value) =>
        void pending().set(cacheKey(key), {
          keyhash: hash(key),
          key: Uint8Array.from(key),
          value: Uint8Array.from(value),
        }),
      delete: (key) =>
        void pending().set(cacheKey(key), { keyhash: hash(key), key: Uint8Array.from(key), value: null }),
    };
  }

  /**
   * Reads ahead, off the main thread, the stored nodes a commit of the changes so far will walk (the paths of every
   * changed key, and of every changed trie in the meta trie): the commit then reads none on the main thread.
   */
  async prefetch(): Promise<void> {
    if (this.computed || this.changes.size === 0) return;
    const nodes = this.db.persisted;
    const changed = [...this.changes.values()];
    // A trie's new root is not known yet: as if each were deleted, so that whatever the meta trie's update pulls up is
    // read too.
    const names = changed.map(({ name }) => ({ keyhash: nodes.hash(name), key: name, value: null }));
    await new Trie(nodes, this.base.root).fetchPaths(names);
    for (const { name, byKey } of changed)
      await new Trie(nodes, this.base.treeRoot(name)).fetchPaths([...byKey.values()]);
  }

  /**
   * Adds the new nodes and version record to `batch` and returns the new version and state root. Committing again
   * without changes in between (a block template's state, then the block mined from it) reuses the computed nodes.
   */
  commit(batch: WriteBatch): { version: bigint; root: Uint8Array } {
    const { root, nodes } = (this.computed ??= this.compute());
    const version = this.db.latestVersion() + 1n;
    for (const [key, { hash, encoded }] of nodes.created) {
      batch.put(withPrefix(NODE_PREFIX, hash), encoded);
      for (const watcher of this.db.creationWatchers) watcher(key);
      // Safe even if the batch is never written: nodes are content-addressed, so a cached node is always correct,
      // and only written versions are reachable.
      this.db.persisted.remember(hash, encoded);
    }
    batch.put(withPrefix(VERSION_PREFIX, u64(version)), root);
    batch.put(LATEST_KEY, u64(version));
    return { version, root };
  }

  private compute(): { root: Uint8Array; nodes: CommitNodes } {
    const nodes = new CommitNodes(this.db.persisted);
    const metaChanges: TrieChange[] = [];
    const emptyRoot = Trie.emptyRoot(nodes);
    for (const { name, byKey } of this.changes.values()) {
      const root = new Trie(nodes, this.base.treeRoot(name)).update([...byKey.values()]);
      const isEmpty = Buffer.compare(root, emptyRoot) === 0;
      metaChanges.push({ keyhash: nodes.hash(name), key: name, value: isEmpty ? null : root });
    }
    return { root: new Trie(nodes, this.base.root).update(metaChanges), nodes };
  }
}

export class StateDb {
  readonly persisted: PersistedNodes;
  /** Told the key (cacheKey) of every node a commit writes, while a prune runs: those nodes must survive its sweep. */
  readonly creationWatchers = new Set<(key: string) => void>();
  /** Values read from the tries of every snapshot and writable state's base. */
  private readonly reads = new LeafReads();

  constructor(
    readonly store: KeyValueStore,
    readonly hasher: Hasher,
    /** The same hash, many messages per call (what verifying a snapshot chunk and hashing a commit's new nodes use). */
    readonly hashMany: HashMany = hashEachWith(hasher),
    nodeCacheBytes = NODE_CACHE_BYTES,
  ) {
    this.persisted = new PersistedNodes(store, hasher, hashMany, nodeCacheBytes);
  }

  /** The newest committed version, or -1 when nothing was committed yet. */
  latestVersion(): bigint {
    const bytes = this.store.getSync(LATEST_KEY);
    return bytes ? new ByteReader(bytes, 'latest version').u64be('version') : -1n;
  }

  /** Records `roots` as the next versions (states imported node by node from a snapshot); returns their numbers. */
  appendVersions(batch: WriteBatch, roots: Uint8Array[]): bigint[] {
    const first = this.latestVersion() + 1n;
    const versions = roots.map((root, i) => {
      batch.put(withPrefix(VERSION_PREFIX, u64(first + BigInt(i))), root);
      return first + BigInt(i);
    });
    if (roots.length > 0) batch.put(LATEST_KEY, u64(versions[versions.length - 1]!));
    return versions;
  }

  private empty: Uint8Array | undefined;

  /** The state root of an empty state (no tries). */
  emptyRoot(): Uint8Array {
    this.empty ??= Trie.emptyRoot(this.persisted);
    return this.empty;
  }

  snapshot(version: bigint): StateSnapshot {
    const root = this.store.getSync(withPrefix(VERSION_PREFIX, u64(version)));
    if (!root) throw new StateError(StateErrorCode.UnknownVersion, `state version ${version} does not exist`);
    return new StateSnapshot(this.persisted, version, root, this.reads);
  }

  /** Every version record with a version number in [from, below), oldest first. */
  async *versions(range: { from?: bigint; below?: bigint } = {}): AsyncIterable<{ version: bigint; root: Uint8Array }> {
    const entries = this.store.entries({
      gte: withPrefix(VERSION_PREFIX, u64(range.from ?? 0n)),
      ...(range.below === undefined
        ? { prefix: VERSION_PREFIX }
        : { lt: withPrefix(VERSION_PREFIX, u64(range.below < 0n ? 0n : range.below)) }),
    });
    for await (const [key, root] of entries) {
      yield { version: new ByteReader(key.subarray(VERSION_PREFIX.length), 'version').u64be('version'), root };
    }
  }

  dropVersion(batch: WriteBatch, version: bigint): void {
    batch.del(withPrefix(VERSION_PREFIX, u64(version)));
  }

  /** A stored node read straight from the store (bypassing the cache), or undefined when it is not stored. */
  storedNode(hash: Uint8Array): TrieNode | undefined {
    const bytes = this.store.getSync(withPrefix(NODE_PREFIX, hash));
    if (bytes) return decodeNode(bytes);
    // The empty trie's root may never have been written: it is known without being stored.
    return equalBytes(hash, this.emptyRoot())
      ? { kind: 'inner', left: this.persisted.nil, right: this.persisted.nil }
      : undefined;
  }

  /** Hashes of the stored nodes whose hash starts with a byte in [firstByte, endByte), in order. */
  nodeHashes(firstByte: number, endByte: number): AsyncIterable<Uint8Array> {
    return this.hashesUnder(NODE_PREFIX, firstByte, endByte);
  }

  /** Hashes of the subtrees marked held whole whose hash starts with a byte in [firstByte, endByte), in order. */
  heldWholeHashes(firstByte: number, endByte: number): AsyncIterable<Uint8Array> {
    return this.hashesUnder(HELD_WHOLE_PREFIX, firstByte, endByte);
  }

  private async *hashesUnder(prefix: Uint8Array, firstByte: number, endByte: number): AsyncIterable<Uint8Array> {
    const lower = withPrefix(prefix, Uint8Array.of(firstByte));
    const range =
      endByte > 0xff ? { gte: lower, prefix } : { gte: lower, lt: withPrefix(prefix, Uint8Array.of(endByte)) };
    for await (const [key] of this.store.entries(range)) yield key.subarray(prefix.length);
  }

  deleteNode(batch: WriteBatch, hash: Uint8Array): void {
    batch.del(withPrefix(NODE_PREFIX, hash));
  }

  deleteHeldWholeMark(batch: WriteBatch, hash: Uint8Array): void {
    batch.del(heldWholeKey(hash));
  }

  /** The state at `version`, or the empty state when it is null. */
  snapshotOrEmpty(version: bigint | null): StateSnapshot {
    return version === null
      ? new StateSnapshot(this.persisted, -1n, this.emptyRoot(), this.reads)
      : this.snapshot(version);
  }

  /** A writable overlay on `baseVersion`, or on the empty state when it is null. */
  writable(baseVersion: bigint | null): WritableState {
    return new WritableState(this, this.snapshotOrEmpty(baseVersion));
  }
}
