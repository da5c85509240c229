/**
 * The balance index: every main-chain version of every balance, by (asset, account), so that "the balance at
 * topoheight T" is one read of the store instead of a walk down the asset's balance trie, ≈ 17 nodes deep. The tries
 * stay the source of the state root: the chain writes a block's entries in the batch that stores its state, moves
 * them with the main chain through reorganisations, and prunes them with the state.
 *
 * Keys in the store:  b v <account> <topoheight 8 B> → NonceBalance encoding (every version)
 *                     b l <account> → <topoheight 8 B> NonceBalance encoding (the latest version)
 *                     b S → the first topoheight the index answers for (8 B; absent: not built, the tries answer)
 * where <account> is <asset 32 B> <key length 1 B> <key>.
 *
 * Most reads are of an account that has not changed since the state read: its latest version answers, a point read
 * that many accounts share (one multi-get for a transfer's whole ring), where the versions need a seek each, which
 * costs several times more. The latest version is written with every block's entries and deleted when its block
 * leaves the main chain; an account without one (changed by a block that left, or never held the asset) is read
 * from its versions.
 *
 * The latest version of the accounts read or written lately is also kept in memory: those need no store read at all.
 * An account's entry there is learnt from any read that found its latest version (admission reads a ring at its
 * referenced state first, then the pool's check and the template at the head) or from a block's batch once it is
 * written, keeps the version that batch replaced (transfers reference states a few blocks back), and is dropped when
 * its block leaves the main chain.
 */
import { ByteReader, ByteWriter } from '../../../protocol/bytes.js';
import type { KeyValueStore, WriteBatch } from '../../../host/storage/kv-store.js';
import { balanceId } from './balance-id.js';
import { setBounded } from './bounded-map.js';
import type { Exclusive } from './state-pruner.js';

/** One balance of one account, as stored in a balance trie. */
export interface BalanceEntry {
  readonly asset: Uint8Array;
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

const ENTRY_PREFIX = new TextEncoder().encode('bv');
const LATEST_PREFIX = new TextEncoder().encode('bl');
const START_KEY = new TextEncoder().encode('bS');
/** Where the index's start was kept before it had latest versions: such an index is built again. */
const FORMER_START_KEY = new TextEncoder().encode('bF');
const ASSET_BYTES = 32;
const TOPO_BYTES = 8;
/** Deletions per write when pruning. */
const PRUNE_BATCH = 2_000;
/** Accounts whose latest balance is kept in memory (≈ 200 bytes each). */
const RECENT_ACCOUNTS = 1 << 17;

/** A balance version: its value at every topoheight from `from` on, until the next version (undefined: none). */
interface Version {
  readonly from: bigint;
  readonly value: Uint8Array | undefined;
}

/**
 * An account's latest balance, from `from` to the head, and, when a block's batch replaced a version the index knew,
 * that version, which holds up to `from` − 1: a transfer references a state a few blocks back, and a ring member
 * changed since is then answered here instead of by a seek of the store.
 */
interface Latest extends Version {
  readonly before?: Version;
}

/** `prefix` ‖ <account> with `extra` bytes left after it. */
function accountKey(prefix: Uint8Array, asset: Uint8Array, key: Uint8Array, extra: number): Uint8Array {
  const bytes = new Uint8Array(prefix.length + ASSET_BYTES + 1 + key.length + extra);
  bytes.set(prefix);
  bytes.set(asset, prefix.length);
  bytes[prefix.length + ASSET_BYTES] = key.length;
  bytes.set(key, prefix.length + ASSET_BYTES + 1);
  return bytes;
}

/** The key of the entry of (asset, key) at `topoheight`; without its last 8 bytes, the prefix of every entry of theirs. */
function entryKey(asset: Uint8Array, key: Uint8Array, topoheight: bigint): Uint8Array {
  const bytes = accountKey(ENTRY_PREFIX, asset, key, TOPO_BYTES);
  new DataView(bytes.buffer).setBigUint64(bytes.length - TOPO_BYTES, topoheight);
  return bytes;
}

const latestKey = (asset: Uint8Array, key: Uint8Array): Uint8Array => accountKey(LATEST_PREFIX, asset, key, 0);

function latestValue(topoheight: bigint, value: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(TOPO_BYTES + value.length);
  new DataView(bytes.buffer).setBigUint64(0, topoheight);
  bytes.set(value, TOPO_BYTES);
  return bytes;
}

const accountOf = (entry: Uint8Array): Uint8Array => entry.subarray(0, entry.length - TOPO_BYTES);

const topoOf = (entry: Uint8Array): bigint =>
  new DataView(entry.buffer, entry.byteOffset + entry.length - TOPO_BYTES, TOPO_BYTES).getBigUint64(0);

export class BalanceIndex {
  private start: bigint | undefined;
  /** The topoheight of the main chain's top as written here, once a block was (the latest balances are its). */
  private head: bigint | undefined;
  private readonly latest = new Map<string, Latest>();
  /** What each batch not yet written will change of `latest` and `head`, applied by `written`. */
  private readonly queued = new Map<WriteBatch, (() => void)[]>();
  /** The accounts each batch not yet written has a latest version for. */
  private readonly newestInBatch = new Map<WriteBatch, Set<string>>();

  constructor(private readonly store: KeyValueStore) {
    const bytes = store.getSync(START_KEY);
    this.start = bytes && new ByteReader(bytes, 'balance index start').u64be('topoheight');
  }

  /** The first topoheight the index answers for, or undefined while it is not built. */
  get from(): bigint | undefined {
    return this.start;
  }

  /** Whether the main chain's state at `topoheight` can be read here. */
  covers(topoheight: bigint): boolean {
    return this.start !== undefined && topoheight >= this.start;
  }

  /** The stored balance of (asset, key) in the main chain's state at `topoheight` (one the index covers). */
  balanceAt(asset: Uint8Array, key: Uint8Array, topoheight: bigint): Uint8Array | undefined {
    return this.balancesAt(asset, [key], topoheight)[0];
  }

  /** The stored balances of (asset, each of `keys`) in the main chain's state at `topoheight`, read together. */
  balancesAt(asset: Uint8Array, keys: readonly Uint8Array[], topoheight: bigint): (Uint8Array | undefined)[] {
    const found: (Uint8Array | undefined)[] = new Array(keys.length);
    const ids = keys.map((key) => balanceId(asset, key));
    const unknown: number[] = [];
    const head = this.head;
    ids.forEach((id, i) => {
      const known = this.latest.get(id);
      if (known && head !== undefined && topoheight >= known.from && topoheight <= head) found[i] = known.value;
      else if (known?.before && topoheight >= known.before.from && topoheight < known.from)
        found[i] = known.before.value;
      else unknown.push(i);
    });
    if (unknown.length === 0) return found;
    const latest = this.store.getManySync(unknown.map((i) => latestKey(asset, keys[i]!)));
    // What the store holds as latest is the head's, unless a batch being written is about to move the head. It is
    // learnt whatever state was asked for (a transfer's ring is read at its referenced state first, then at the head);
    // a version found by a seek is the latest only when the head was asked for.
    const settled = this.queued.size === 0;
    unknown.forEach((i, j) => {
      const stored = latest[j];
      const from = stored && new DataView(stored.buffer, stored.byteOffset, TOPO_BYTES).getBigUint64(0);
      let version: Latest;
      let learn = settled;
      if (from !== undefined && from <= topoheight) version = { from, value: stored!.subarray(TOPO_BYTES) };
      else {
        // Changed since `topoheight`, or without a latest version: the greatest version at or below it.
        const highest = entryKey(asset, keys[i]!, topoheight);
        const entry = this.store.lastSync(accountOf(highest), highest);
        version = { from: entry ? topoOf(entry[0]) : 0n, value: entry?.[1] };
        learn &&= topoheight === head;
      }
      if (learn) setBounded(this.latest, RECENT_ACCOUNTS, ids[i]!, version);
      found[i] = version.value;
    });
    return found;
  }

  /** Adds the balances the main-chain block at `topoheight` wrote. */
  record(batch: WriteBatch, topoheight: bigint, entries: readonly BalanceEntry[]): void {
    // Blocks joining the main chain together are recorded newest first: an account's latest version is the first.
    const newest = this.newestInBatch.get(batch) ?? new Set<string>();
    this.newestInBatch.set(batch, newest);
    for (const { asset, key, value } of entries) {
      batch.put(entryKey(asset, key, topoheight), value);
      const id = balanceId(asset, key);
      if (newest.has(id)) continue;
      newest.add(id);
      batch.put(latestKey(asset, key), latestValue(topoheight, value));
    }
    this.queue(batch, () => {
      for (const { asset, key, value } of entries) {
        const id = balanceId(asset, key);
        const known = this.latest.get(id);
        if (!known) setBounded(this.latest, RECENT_ACCOUNTS, id, { from: topoheight, value });
        else if (known.from < topoheight)
          this.latest.set(id, { from: topoheight, value, before: { from: known.from, value: known.value } });
        // An older block of the same batch (recorded after the newer): the version the latest replaced, if newer.
        else if (known.from > topoheight && (known.before?.from ?? -1n) < topoheight)
          this.latest.set(id, { ...known, before: { from: topoheight, value } });
      }
      if (this.head === undefined || this.head < topoheight) this.head = topoheight;
    });
  }

  /** Removes the balances the block at `topoheight` wrote, when it leaves the main chain. */
  forget(batch: WriteBatch, topoheight: bigint, entries: readonly Omit<BalanceEntry, 'value'>[]): void {
    for (const { asset, key } of entries) {
      batch.del(entryKey(asset, key, topoheight));
      batch.del(latestKey(asset, key));
    }
    this.queue(batch, () => {
      for (const { asset, key } of entries) this.latest.delete(balanceId(asset, key));
      if (this.head !== undefined && this.head >= topoheight) this.head = topoheight - 1n;
    });
  }

  private queue(batch: WriteBatch, change: () => void): void {
    const changes = this.queued.get(batch) ?? [];
    changes.push(change);
    this.queued.set(batch, changes);
  }

  /** Tells the index that `batch` was written (or, `failed`, that it will not be): its changes now hold. */
  written(batch: WriteBatch, failed = false): void {
    this.newestInBatch.delete(batch);
    const changes = this.queued.get(batch);
    if (!changes) return;
    this.queued.delete(batch);
    if (failed) this.forgetLatest();
    else for (const change of changes) change();
  }

  private forgetLatest(): void {
    this.latest.clear();
    this.head = undefined;
  }

  /** Stops answering (the tries answer) until the index is built again; takes effect at once. */
  drop(batch: WriteBatch): void {
    batch.del(START_KEY);
    this.start = undefined;
    this.forgetLatest();
  }

  /**
   * Builds the index anew from `entries`, every balance of the main chain's state at `topoheight`; the index answers
   * from that topoheight on. Runs with no block being stored.
   */
  async build(topoheight: bigint, entries: Iterable<BalanceEntry>): Promise<void> {
    const clearing = this.store.batch();
    this.drop(clearing);
    await clearing.write();
    let batch = this.store.batch().del(FORMER_START_KEY);
    for (const prefix of [ENTRY_PREFIX, LATEST_PREFIX])
      for await (const [key] of this.store.entries({ prefix })) {
        batch.del(key);
        if (batch.length >= PRUNE_BATCH) {
          await batch.write();
          batch = this.store.batch();
        }
      }
    for (const { asset, key, value } of entries) {
      batch.put(entryKey(asset, key, topoheight), value);
      batch.put(latestKey(asset, key), latestValue(topoheight, value));
    }
    batch.put(START_KEY, new ByteWriter().u64be(topoheight).finish());
    await batch.write();
    this.start = topoheight;
    this.head = topoheight;
  }

  /**
   * Drops every entry below `floor` that another entry at or below `floor` shadows (the state at `floor` and above
   * reads the same), and answers from `floor` on. Deletions are written in batches through `exclusive`, each followed
   * by `pause` (which may throw to stop).
   */
  async prune(floor: bigint, exclusive: Exclusive, pause: () => Promise<void>): Promise<number> {
    let dropped = 0;
    let pending: Uint8Array[] = [];
    const flush = async (): Promise<void> => {
      const keys = pending;
      pending = [];
      await exclusive(async () => {
        const batch = this.store.batch();
        for (const key of keys) batch.del(key);
        await batch.write();
      });
      dropped += keys.length;
      await pause();
    };
    /** The last entry seen at or below the floor, a candidate for deletion if its account has a later one there. */
    let previous: Uint8Array | undefined;
    for await (const [key] of this.store.entries({ prefix: ENTRY_PREFIX })) {
      const sameAccount =
        previous !== undefined &&
        previous.length === key.length &&
        Buffer.compare(accountOf(previous), accountOf(key)) === 0;
      if (topoOf(key) > floor) {
        previous = undefined;
        continue;
      }
      if (sameAccount) pending.push(previous!);
      previous = Uint8Array.from(key);
      if (pending.length >= PRUNE_BATCH) await flush();
    }
    if (pending.length > 0) await flush();
    if (this.start !== undefined && this.start < floor)
      await exclusive(async () => {
        if (this.start === undefined) return;
        await this.store.batch().put(START_KEY, new ByteWriter().u64be(floor).finish()).write();
        this.start = floor;
      });
    return dropped;
  }
}
