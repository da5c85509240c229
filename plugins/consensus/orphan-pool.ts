/**
 * Blocks whose parent this node has not seen yet (docs/protocol.md § Orphan blocks), kept with the transaction bodies
 * they came with so that a block arriving before its parent is not lost. The chain checks all it can without the parent before a block gets here. The pool
 * is bounded four ways: an orphan expires after ORPHAN_TTL_MS; one source (a peer, the RPC) holds at most
 * MAX_ORPHANS_PER_SOURCE, its oldest giving way to its newest; and when the pool holds MAX_ORPHANS blocks or
 * MAX_ORPHAN_BYTES (blocks and bodies), the oldest orphans of all give way, so junk can delay a legitimate orphan's adoption but never
 * keep the newest out.
 */
import { toHex } from '../../protocol/bytes.js';

export const MAX_ORPHANS = 256;
export const MAX_ORPHANS_PER_SOURCE = 32;
export const ORPHAN_TTL_MS = 10 * 60_000;
/** Room for six of the largest blocks with their transactions; an ordinary block takes a few KiB. */
export const MAX_ORPHAN_BYTES = 64 * 1024 * 1024;

/** A kept block and the bodies of its transactions that came with it (by txid, hex). */
export interface Orphan {
  readonly bytes: Uint8Array;
  readonly txs: ReadonlyMap<string, Uint8Array>;
  readonly parent: string;
  readonly source: string;
  readonly keptAt: number;
}

export class OrphanPool {
  /** By block id (hex), oldest first: a Map keeps insertion order. */
  private readonly byId = new Map<string, Orphan>();
  private bytesKept = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The orphans waiting now (expired ones are not counted). */
  get size(): number {
    this.expire();
    return this.byId.size;
  }

  /** Keeps a block until its parent arrives (or it expires or gives way). */
  keep(
    id: Uint8Array,
    parent: Uint8Array,
    bytes: Uint8Array,
    source: string,
    txs: ReadonlyMap<string, Uint8Array> = new Map(),
  ): void {
    this.expire();
    const key = toHex(id);
    if (this.byId.has(key)) return;
    const fromSource = [...this.byId].filter(([, orphan]) => orphan.source === source);
    if (fromSource.length >= MAX_ORPHANS_PER_SOURCE) this.drop(fromSource[0]![0]);
    const size = sizeOf(bytes, txs);
    while (this.byId.size >= MAX_ORPHANS || (this.byId.size > 0 && this.bytesKept + size > MAX_ORPHAN_BYTES))
      this.drop(this.byId.keys().next().value!);
    this.byId.set(key, { bytes, txs, parent: toHex(parent), source, keptAt: this.now() });
    this.bytesKept += size;
  }

  /** Takes out, oldest first, the blocks that were waiting for `parent`. */
  takeChildrenOf(parent: Uint8Array): Orphan[] {
    this.expire();
    const key = toHex(parent);
    const children: Orphan[] = [];
    for (const [id, orphan] of this.byId) {
      if (orphan.parent !== key) continue;
      children.push(orphan);
      this.drop(id);
    }
    return children;
  }

  private expire(): void {
    const oldest = this.now() - ORPHAN_TTL_MS;
    for (const [id, orphan] of this.byId) {
      if (orphan.keptAt > oldest) break;
      this.drop(id);
    }
  }

  private drop(id: string): void {
    const orphan = this.byId.get(id)!;
    this.bytesKept -= sizeOf(orphan.bytes, orphan.txs);
    this.byId.delete(id);
  }
}

function sizeOf(bytes: Uint8Array, txs: ReadonlyMap<string, Uint8Array>): number {
  let size = bytes.length;
  for (const tx of txs.values()) size += tx.length;
  return size;
}
