/**
 * Stored trie nodes kept in memory by hash, compactly: each node's hash and encoding are appended to a byte arena and
 * an open-addressing table of arena offsets finds them. A cached node costs its encoding and ≈ 45 bytes more (an
 * inner node ≈ 110 bytes in all), where a decoded node object with its views and map entry costs ≈ 630 bytes of heap,
 * and the cache holds no object the garbage collector has to trace. A hit hands back a view of the encoding.
 *
 * Two generations share the budget: when the current one is full it becomes the previous one and the previous one is
 * dropped. A hit in the previous generation is copied into the current one, so what lookups keep reading (the upper
 * levels of the tries, the states transfers refer to) survives every turn, and what nothing read lately goes.
 */

/** Arena entry: 32-byte hash, 4-byte little-endian length, encoding. */
const HASH_BYTES = 32;
const HEADER_BYTES = HASH_BYTES + 4;
/** The table slot of the hash at `offset` in `bytes` (read in place: rehashing a table allocates nothing). */
type SlotOf = (bytes: Uint8Array, offset: number, mask: number) => number;

/** An inner node's entry, the smallest there is: what a generation's table is sized for. */
const SMALLEST_ENTRY = HEADER_BYTES + 65;
const INITIAL_ARENA_BYTES = 64 * 1024;
const INITIAL_SLOTS = 1024;

class Generation {
  /** Arena offset + 1 of each entry, 0 for a free slot; at most half the slots are taken. */
  private slots = new Int32Array(INITIAL_SLOTS);
  private arena = new Uint8Array(INITIAL_ARENA_BYTES);
  private used = 0;
  count = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly slotOf: SlotOf,
  ) {}

  /** The arena offset of `hash`'s entry, or -1. */
  private find(hash: Uint8Array): number {
    const mask = this.slots.length - 1;
    for (let slot = this.slotOf(hash, 0, mask); ; slot = (slot + 1) & mask) {
      const stored = this.slots[slot]!;
      if (stored === 0) return -1;
      if (this.holds(stored - 1, hash)) return stored - 1;
    }
  }

  private holds(offset: number, hash: Uint8Array): boolean {
    const arena = this.arena;
    for (let i = 0; i < HASH_BYTES; i++) if (arena[offset + i] !== hash[i]) return false;
    return true;
  }

  get(hash: Uint8Array): Uint8Array | undefined {
    const offset = this.find(hash);
    if (offset < 0) return undefined;
    const arena = this.arena;
    const start = offset + HEADER_BYTES;
    const length =
      arena[offset + 32]! | (arena[offset + 33]! << 8) | (arena[offset + 34]! << 16) | (arena[offset + 35]! << 24);
    return arena.subarray(start, start + length);
  }

  /** Whether an entry of `length` encoded bytes still fits (the arena's and the table's budget). */
  fits(length: number): boolean {
    return this.used + HEADER_BYTES + length <= this.maxBytes && (this.count + 1) * SMALLEST_ENTRY <= this.maxBytes;
  }

  /** Adds an entry the generation does not hold and has room for. */
  add(hash: Uint8Array, encoded: Uint8Array): void {
    const size = HEADER_BYTES + encoded.length;
    if (this.used + size > this.arena.length) this.growArena(this.used + size);
    if (2 * (this.count + 1) > this.slots.length) this.growSlots();
    const arena = this.arena;
    const offset = this.used;
    arena.set(hash.subarray(0, HASH_BYTES), offset);
    arena[offset + 32] = encoded.length & 0xff;
    arena[offset + 33] = (encoded.length >>> 8) & 0xff;
    arena[offset + 34] = (encoded.length >>> 16) & 0xff;
    arena[offset + 35] = encoded.length >>> 24;
    arena.set(encoded, offset + HEADER_BYTES);
    this.used += size;
    this.place(offset);
    this.count++;
  }

  has(hash: Uint8Array): boolean {
    return this.find(hash) >= 0;
  }

  private place(offset: number): void {
    const mask = this.slots.length - 1;
    let slot = this.slotOf(this.arena, offset, mask);
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = offset + 1;
  }

  /** A bigger arena (doubling, up to the budget); views handed out earlier keep the old one until dropped. */
  private growArena(needed: number): void {
    let length = this.arena.length * 2;
    while (length < needed) length *= 2;
    const arena = new Uint8Array(Math.min(length, Math.max(needed, this.maxBytes)));
    arena.set(this.arena.subarray(0, this.used));
    this.arena = arena;
  }

  private growSlots(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    for (const stored of old) if (stored !== 0) this.place(stored - 1);
  }
}

export class NodeCache {
  private current: Generation;
  private previous: Generation | undefined;
  private readonly slotOf: SlotOf;

  /** `maxBytes`: what both generations may hold together (arenas and tables). */
  constructor(private readonly maxBytes: number) {
    // Which of the hash's eight words pick the slot is chosen per process, so nodes whose hashes were ground to
    // share a few bits cannot make one long probe run.
    const first = Math.floor(Math.random() * 8);
    const second = (first + 1 + Math.floor(Math.random() * 7)) % 8;
    const word = (bytes: Uint8Array, at: number): number =>
      bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);
    this.slotOf = (bytes, offset, mask) =>
      (Math.imul(word(bytes, offset + 4 * first), 0x9e3779b1) ^ word(bytes, offset + 4 * second)) & mask;
    this.current = this.newGeneration();
  }

  private newGeneration(): Generation {
    // Each generation gets half the budget, less its table (at most two 4-byte slots per smallest entry).
    const half = Math.floor(this.maxBytes / 2);
    return new Generation(Math.floor((half * SMALLEST_ENTRY) / (SMALLEST_ENTRY + 8)), this.slotOf);
  }

  /** The encoding stored for `hash` (a view valid for as long as it is kept), or undefined. */
  get(hash: Uint8Array): Uint8Array | undefined {
    const encoded = this.current.get(hash);
    if (encoded) return encoded;
    const old = this.previous?.get(hash);
    if (old) this.add(hash, old);
    return old;
  }

  /** Remembers a node's encoding under its hash (nodes are content-addressed: an entry never goes stale). */
  set(hash: Uint8Array, encoded: Uint8Array): void {
    if (!this.current.has(hash)) this.add(hash, encoded);
  }

  private add(hash: Uint8Array, encoded: Uint8Array): void {
    if (!this.current.fits(encoded.length)) {
      this.previous = this.current;
      this.current = this.newGeneration();
      // An entry larger than a whole generation is not cached.
      if (!this.current.fits(encoded.length)) return;
    }
    this.current.add(hash, encoded);
  }

  /** Entries held, in both generations (an entry copied forward counts twice). */
  get size(): number {
    return this.current.count + (this.previous?.count ?? 0);
  }
}
