/**
 * Blocks whose parent this node has not seen yet (docs/protocol.md § Orphan blocks), kept so that a block arriving
 * before its parent is not lost. The chain checks all it can without the parent before a block gets here. The pool
 * is bounded four ways: an orphan expires after ORPHAN_TTL_MS; one source (a peer, the RPC) holds at most
 * MAX_ORPHANS_PER_SOURCE, its oldest giving way to its newest; and when the pool holds MAX_ORPHANS blocks or
 * MAX_ORPHAN_BYTES, the oldest orphans of all give way, so junk can delay a legitimate orphan's adoption but never
 * keep the newest out.
 */
import { toHex } from '../../host/protocol/bytes.js';

export const MAX_ORPHANS = 256;
export const MAX_ORPHANS_PER_SOURCE = 32;
export const ORPHAN_TTL_MS = 10 * 60_000;
/** Room for 48 blocks of the largest size (10 000 txids); an ordinary block takes a few KiB. */
export const MAX_ORPHAN_BYTES = 16 * 1024 * 1024;

interface Orphan {
  readonly bytes: Uint8Array;
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
  keep(id: Uint8Array, parent: Uint8Array, bytes: Uint8Array, source: string): void {
    this.expire();
    const key = toHex(id);
    if (this.byId.has(key)) return;
    const fromSource = [...this.byId].filter(([, orphan]) => orphan.source === source);
    if (fromSource.length >= MAX_ORPHANS_PER_SOURCE) this.drop(fromSource[0]![0]);
    while (this.byId.size >= MAX_ORPHANS || (this.byId.size > 0 && this.bytesKept + bytes.length > MAX_ORPHAN_BYTES))
      this.drop(this.byId.keys().next().value!);
    this.byId.set(key, { bytes, parent: toHex(parent), source, keptAt: this.now() });
    this.bytesKept += bytes.length;
  }

  /** Takes out, oldest first, the blocks that were waiting for `parent`. */
  takeChildrenOf(parent: Uint8Array): Uint8Array[] {
    this.expire();
    const key = toHex(parent);
    const children: Uint8Array[] = [];
    for (const [id, orphan] of this.byId) {
      if (orphan.parent !== key) continue;
      children.push(orphan.bytes);
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
    this.bytesKept -= this.byId.get(id)!.bytes.length;
    this.byId.delete(id);
  }
}
