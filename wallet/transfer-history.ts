/**
 * The wallet's transfer history, per asset: its entries (history-entry.ts). The wallet records its outgoing payloads
 * itself when it sends them (`time` is then the sending time); their block fields (height, topoheight, blockhash,
 * time) are filled once the daemon reports the transaction in a block or the history sync (history-sync.ts) finds it,
 * with `sc_outcome` for a contract transaction, and one the daemon holds in neither its pool nor its chain is marked
 * `dropped` (found in a block later, it is mined after all); incoming, coinbase and contract-payout entries come from
 * the sync. Entries of a token carry its `scid` (native entries have none). `toJSON` and `load` carry the entries
 * through the wallet file (amounts as exact JSON integers); `onAdd` tells of each new entry as it is recorded.
 */
import type { DaemonClient, TransactionRecord } from './daemon-client.js';
import { isoTime, type HistoryEntry } from './history-entry.js';
import { storedHistoryEntry } from './stored-history-entry.js';
import { NATIVE_ASSET } from './wallet-constants.js';

export type HistoryListener = (scid: string, entry: HistoryEntry) => void;

export class TransferHistory {
  private readonly byAsset = new Map<string, HistoryEntry[]>();
  private readonly listeners = new Set<HistoryListener>();

  /**
   * Records an entry; an outgoing one replaces the outgoing entry of the same transaction and payload, if any (a
   * dropped transaction sent again can be the very same transaction: built on the same state with the same ring).
   */
  add(scid: string, entry: HistoryEntry): void {
    if (scid !== NATIVE_ASSET) entry.scid = scid;
    const entries = (this.byAsset.get(scid) ?? []).filter(
      (known) => entry.incoming || known.incoming || known.txid !== entry.txid || known.pos !== entry.pos,
    );
    entries.push(entry);
    this.byAsset.set(scid, entries);
    for (const listener of this.listeners) listener(scid, entry);
  }

  /** Calls `listener` for each entry added from now on (not those `load` reads back); returns the removal. */
  onAdd(listener: HistoryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Entries of one asset, in the order they happened. */
  entries(scid: string): HistoryEntry[] {
    return this.byAsset.get(scid) ?? [];
  }

  /** Every asset with entries, and its entries. */
  assets(): [string, HistoryEntry[]][] {
    return [...this.byAsset];
  }

  /** Orders every asset's entries by block (topoheight, transactions before the block's credits, tpos, pos); unmined last. */
  sort(): void {
    const key = (e: HistoryEntry): number[] => [
      e.topoheight < 0 ? Number.MAX_SAFE_INTEGER : e.topoheight,
      e.txid === e.blockhash || e.txid === '' ? 1 : 0,
      e.tpos,
      e.pos,
      e.incoming ? 1 : 0,
    ];
    for (const entries of this.byAsset.values()) {
      entries.sort((a, b) => {
        const [ka, kb] = [key(a), key(b)];
        for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!;
        return 0;
      });
    }
  }

  /** The entries per asset, for the wallet file. */
  toJSON(): Record<string, HistoryEntry[]> {
    return Object.fromEntries(this.byAsset);
  }

  /**
   * Replaces the entries with those of `toJSON`'s form as read back from the wallet file (or of an earlier version's
   * file, stored-history-entry.ts); a malformed entry is a WalletFileError.
   */
  load(stored: unknown): void {
    this.byAsset.clear();
    if (typeof stored !== 'object' || stored === null) return;
    for (const [scid, entries] of Object.entries(stored))
      if (/^[0-9a-f]{64}$/.test(scid) && Array.isArray(entries))
        this.byAsset.set(
          scid,
          entries.map((entry, i) => storedHistoryEntry(entry, `entries.${scid}[${i}]`)),
        );
  }

  /**
   * Asks the daemon about the outgoing entries whose transaction is not in a block: one now in a block gets its block
   * fields (height, topoheight, blockhash, time) and what a contract transaction's call did there (`sc_outcome`); one
   * in neither the pool nor the chain is marked `dropped`. Resolves to the txids still in the pool.
   */
  async confirm(daemon: DaemonClient): Promise<string[]> {
    const waiting = [...this.byAsset.values()].flat().filter((entry) => entry.blockhash === '' && !entry.dropped);
    const records = new Map<string, Promise<TransactionRecord>>();
    const pooled = new Set<string>();
    for (const entry of waiting) {
      if (!records.has(entry.txid)) records.set(entry.txid, daemon.getTransaction(entry.txid));
      const record = await records.get(entry.txid)!;
      if (record.in_pool) pooled.add(entry.txid);
      else if (record.valid_block === '') entry.dropped = true;
      // Main-chain blocks have one topoheight per height here.
      else
        Object.assign(entry, {
          height: record.block_height,
          topoheight: record.block_height,
          blockhash: record.valid_block,
          time: isoTime(await daemon.blockTimestamp(record.valid_block)),
          ...(record.sc_outcome && { sc_outcome: record.sc_outcome }),
        });
    }
    return [...pooled];
  }
}
