/**
 * The wallet's transfer history, per asset: the entries of SERVICE.md's "Wallet transfer entry". The wallet records
 * its outgoing payloads itself when it sends them (`time` is then the sending time); their block fields (height,
 * topoheight, blockhash, time) are filled once the daemon reports the transaction in a block. Kept in memory for the
 * life of the process (incoming and coinbase entries come with the chain sync).
 */
import { rpcArgumentToJson, type RpcArgument } from '../../host/protocol/rpc-arguments.js';
import type { DaemonClient, TransactionRecord } from './daemon-client.js';

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
  payload_rpc?: ReturnType<typeof rpcArgumentToJson>[];
  sender: string;
  dstport: number;
  srcport: number;
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

export class TransferHistory {
  private readonly byAsset = new Map<string, TransferEntry[]>();

  add(scid: string, entry: TransferEntry): void {
    const entries = this.byAsset.get(scid) ?? [];
    entries.push(entry);
    this.byAsset.set(scid, entries);
  }

  /** Entries of one asset, in the order they happened. */
  entries(scid: string): TransferEntry[] {
    return this.byAsset.get(scid) ?? [];
  }

  /** Every asset with entries, and its entries. */
  assets(): [string, TransferEntry[]][] {
    return [...this.byAsset];
  }

  /** Fills the block fields (height, topoheight, blockhash, time) of entries whose transaction is now in a block. */
  async confirm(daemon: DaemonClient): Promise<void> {
    const waiting = [...this.byAsset.values()].flat().filter((entry) => entry.blockhash === '');
    const records = new Map<string, Promise<TransactionRecord>>();
    for (const entry of waiting) {
      if (!records.has(entry.txid)) records.set(entry.txid, daemon.getTransaction(entry.txid));
      const record = await records.get(entry.txid)!;
      if (record.valid_block === '') continue;
      // Main-chain blocks have one topoheight per height here.
      Object.assign(entry, { height: record.block_height, topoheight: record.block_height, blockhash: record.valid_block, time: isoTime(await daemon.blockTimestamp(record.valid_block)) });
    }
  }
}
