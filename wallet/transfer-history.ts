/**
 * The wallet's transfer history, per asset: the entries of docs/rpc.md § GetTransferbyTXID. The wallet records
 * its outgoing payloads itself when it sends them (`time` is then the sending time); their block fields (height,
 * topoheight, blockhash, time) are filled once the daemon reports the transaction in a block or the history sync
 * (history-sync.ts) finds it, with `sc_outcome` for a contract transaction; incoming, coinbase and contract-payout
 * entries come from the sync. Entries of a token carry its `scid` (native entries have none). `toJSON` and `load`
 * carry the entries through the wallet file; `onAdd` tells of each new entry as it is recorded.
 */
import type { ContractCallOutcome } from '../protocol/contract-outcome.js';
import type { rpcArgumentToExactJson, RpcArgument } from '../protocol/rpc-arguments.js';
import type { DaemonClient, TransactionRecord } from './daemon-client.js';
import { NATIVE_ASSET } from './wallet-constants.js';

export interface TransferEntry {
  height: number;
  topoheight: number;
  blockhash: string;
  minerreward: number;
  tpos: number;
  pos: number;
  coinbase: boolean;
  incoming: boolean;
  txid: string;
  destination: string;
  amount: number;
  burn?: number;
  fees: number;
  proof: string;
  /** 0 incoming or coinbase, 1 outgoing. */
  status: number;
  time: string;
  ewdata: string;
  data: string;
  payloadtype: number;
  payload: string;
  /** The payload's arguments; a `U` beyond 2^53 is a bigint, which the wallet file and the answers write exactly. */
  payload_rpc?: ReturnType<typeof rpcArgumentToExactJson>[];
  sender: string;
  dstport: number;
  srcport: number;
  /** The token's SCID (absent on native-coin entries). */
  scid?: string;
  /** What a contract transaction did when mined (outgoing contract calls and installs, once in a block). */
  sc_outcome?: ContractCallOutcome;
}

/** The `D` (destination port) or `S` (source port) argument's value, else 0. */
export function port(args: readonly RpcArgument[], name: 'D' | 'S'): number {
  const arg = args.find((a) => a.name === name && a.datatype === 'U');
  return arg ? Number(arg.value) : 0;
}

/** ISO 8601 with milliseconds and the local UTC offset, e.g. 2026-01-02T03:04:05.678+01:00. */
export function isoTime(ms: number): string {
  const date = new Date(ms);
  const offset = -date.getTimezoneOffset();
  const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 23);
  return `${local}${offset >= 0 ? '+' : '-'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

export type HistoryListener = (scid: string, entry: TransferEntry) => void;

export class TransferHistory {
  private readonly byAsset = new Map<string, TransferEntry[]>();
  private readonly listeners = new Set<HistoryListener>();

  add(scid: string, entry: TransferEntry): void {
    if (scid !== NATIVE_ASSET) entry.scid = scid;
    const entries = this.byAsset.get(scid) ?? [];
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
  entries(scid: string): TransferEntry[] {
    return this.byAsset.get(scid) ?? [];
  }

  /** Every asset with entries, and its entries. */
  assets(): [string, TransferEntry[]][] {
    return [...this.byAsset];
  }

  /** Orders every asset's entries by block (topoheight, transactions before the block's credits, tpos, pos); unmined last. */
  sort(): void {
    const key = (e: TransferEntry): number[] => [
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
  toJSON(): Record<string, TransferEntry[]> {
    return Object.fromEntries(this.byAsset);
  }

  /** Replaces the entries with those of `toJSON`'s form (as read back from the wallet file). */
  load(stored: unknown): void {
    this.byAsset.clear();
    if (typeof stored !== 'object' || stored === null) return;
    for (const [scid, entries] of Object.entries(stored))
      if (/^[0-9a-f]{64}$/.test(scid) && Array.isArray(entries)) this.byAsset.set(scid, entries as TransferEntry[]);
  }

  /**
   * Fills the block fields (height, topoheight, blockhash, time) of entries whose transaction is now in a block, and
   * what a contract transaction's call did there (`sc_outcome`).
   */
  async confirm(daemon: DaemonClient): Promise<void> {
    const waiting = [...this.byAsset.values()].flat().filter((entry) => entry.blockhash === '');
    const records = new Map<string, Promise<TransactionRecord>>();
    for (const entry of waiting) {
      if (!records.has(entry.txid)) records.set(entry.txid, daemon.getTransaction(entry.txid));
      const record = await records.get(entry.txid)!;
      if (record.valid_block === '') continue;
      // Main-chain blocks have one topoheight per height here.
      Object.assign(entry, {
        height: record.block_height,
        topoheight: record.block_height,
        blockhash: record.valid_block,
        time: isoTime(await daemon.blockTimestamp(record.valid_block)),
        ...(record.sc_outcome && { sc_outcome: record.sc_outcome }),
      });
    }
  }
}
