/**
 * The addresses this node knows, persisted across restarts. White: peers it has completed a handshake with. Grey:
 * addresses it has only heard of (from peer exchange or configuration). Dialling picks white before grey; an
 * address that keeps failing drops from white to grey and then out of the book.
 */
import type { Logger } from '../../host/logger.js';
import type { KeyValueStore } from '../../host/storage/kv-store.js';
import { StoredTable } from './stored-table.js';

interface Entry {
  /** Last successful handshake (white) or when first heard of (grey), ms since epoch. */
  seen: number;
  failures: number;
}

/** Failed dials after which a grey address is forgotten. */
const MAX_FAILURES = 3;
/** The grey list is capped so that peer exchange cannot fill the store; the least recently heard go first. */
const MAX_GREY = 1000;

export class PeerBook {
  private readonly white = new Map<string, Entry>();
  private readonly grey = new Map<string, Entry>();
  private readonly whiteTable: StoredTable<Entry>;
  private readonly greyTable: StoredTable<Entry>;

  constructor(store: KeyValueStore, logger: Logger) {
    this.whiteTable = new StoredTable(store, 'w', logger);
    this.greyTable = new StoredTable(store, 'g', logger);
  }

  async load(): Promise<void> {
    for (const [address, entry] of await this.whiteTable.load()) this.white.set(address, entry);
    for (const [address, entry] of await this.greyTable.load()) this.grey.set(address, entry);
  }

  get whiteSize(): number {
    return this.white.size;
  }

  get greySize(): number {
    return this.grey.size;
  }

  isWhite(address: string): boolean {
    return this.white.has(address);
  }

  isGrey(address: string): boolean {
    return this.grey.has(address);
  }

  /** An address heard of; ignored when already known. */
  heardOf(address: string): void {
    if (this.white.has(address) || this.grey.has(address)) return;
    if (this.grey.size >= MAX_GREY) {
      const oldest = [...this.grey].reduce((a, b) => (b[1].seen < a[1].seen ? b : a))[0];
      this.grey.delete(oldest);
      this.greyTable.delete(oldest);
    }
    this.setEntry(this.grey, this.greyTable, address, { seen: Date.now(), failures: 0 });
  }

  /** A handshake with the peer listening at `address` succeeded. */
  connected(address: string): void {
    if (this.grey.delete(address)) this.greyTable.delete(address);
    this.setEntry(this.white, this.whiteTable, address, { seen: Date.now(), failures: 0 });
  }

  /** A dial to `address` failed. */
  failed(address: string): void {
    const white = this.white.get(address);
    if (white) {
      this.white.delete(address);
      this.whiteTable.delete(address);
      this.setEntry(this.grey, this.greyTable, address, { seen: white.seen, failures: 1 });
      return;
    }
    const grey = this.grey.get(address);
    if (!grey) return;
    if (grey.failures + 1 >= MAX_FAILURES) {
      this.grey.delete(address);
      this.greyTable.delete(address);
    } else {
      this.setEntry(this.grey, this.greyTable, address, { ...grey, failures: grey.failures + 1 });
    }
  }

  /** Forgets an address (our own, or one that turned out to be on another network). */
  forget(address: string): void {
    if (this.white.delete(address)) this.whiteTable.delete(address);
    if (this.grey.delete(address)) this.greyTable.delete(address);
  }

  /** Addresses worth dialling, best first: white by most recent handshake, then grey by fewest failures. */
  candidates(): string[] {
    const white = [...this.white].sort((a, b) => b[1].seen - a[1].seen).map(([address]) => address);
    const grey = [...this.grey].sort((a, b) => a[1].failures - b[1].failures).map(([address]) => address);
    return [...white, ...grey];
  }

  /** White addresses to share in peer exchange, most recently seen first. */
  share(limit: number): string[] {
    return [...this.white]
      .sort((a, b) => b[1].seen - a[1].seen)
      .slice(0, limit)
      .map(([address]) => address);
  }

  flush(): Promise<void> {
    return Promise.all([this.whiteTable.flush(), this.greyTable.flush()]).then(() => undefined);
  }

  private setEntry(list: Map<string, Entry>, table: StoredTable<Entry>, address: string, entry: Entry): void {
    list.set(address, entry);
    table.put(address, entry);
  }
}
