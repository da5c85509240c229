/**
 * `wallet history [--in] [--out] [--asset SCID] [--limit N]`: the wallet's transfers of one asset, brought up to date
 * first — a table for people (txids shortened), every field in full in JSON.
 */
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import type { HistoryEntry } from '../../wallet/history-entry.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';
import { COIN_SYMBOL, formatCoins } from '../../protocol/coin-amount.js';
import { describeOutcome } from './contract-outcome-text.js';
import { columns } from './output.js';
import { syncHistory, type WalletSession } from './session.js';

export interface HistoryOptions {
  /** Only incoming entries (with `out`: both). */
  in?: boolean;
  /** Only outgoing entries (with `in`: both). */
  out?: boolean;
  asset?: string;
  /** Only the latest N entries. */
  limit?: number;
}

export interface HistoryLine {
  /** -1 while the transaction waits in the pool. */
  height: number;
  time: string;
  direction: 'in' | 'out';
  coinbase: boolean;
  /** Atomic units. */
  amount: bigint;
  fee: bigint;
  /** The sender of an incoming entry (when known), the destination of an outgoing one. */
  counterparty: string;
  txid: string;
  sc_outcome?: ContractCallOutcome;
}

export interface HistoryResult {
  asset: string;
  entries: HistoryLine[];
}

const line = (entry: HistoryEntry): HistoryLine => ({
  height: entry.blockhash === '' ? -1 : entry.height,
  time: entry.time,
  direction: entry.incoming || entry.coinbase ? 'in' : 'out',
  coinbase: entry.coinbase,
  amount: entry.amount,
  fee: entry.fees,
  counterparty: entry.coinbase ? '' : entry.incoming ? entry.sender : entry.destination,
  txid: entry.txid,
  ...(entry.sc_outcome ? { sc_outcome: entry.sc_outcome } : {}),
});

export async function history(session: WalletSession, options: HistoryOptions): Promise<HistoryResult> {
  await syncHistory(session);
  const asset = options.asset ?? NATIVE_ASSET;
  const both = options.in === options.out;
  const lines = session.wallet.history
    .entries(asset)
    .map(line)
    .filter((entry) => both || (entry.direction === 'in') === Boolean(options.in));
  return { asset, entries: options.limit === undefined ? lines : lines.slice(-options.limit) };
}

/** `abcdef12…34567890`: enough of a long id to recognise it. */
export const shorten = (id: string): string => (id.length > 20 ? `${id.slice(0, 8)}…${id.slice(-8)}` : id);

export function historyText(result: HistoryResult): string {
  if (result.entries.length === 0) return 'no transfers yet\n';
  const rows = result.entries.map((entry) => [
    entry.height < 0 ? 'pending' : String(entry.height),
    // The genesis block has no time of its own (its timestamp is 0).
    entry.height === 0 ? 'genesis' : entry.time.slice(0, 19).replace('T', ' '),
    entry.direction,
    formatCoins(entry.amount),
    entry.direction === 'out' ? formatCoins(entry.fee) : '',
    entry.coinbase ? 'coinbase' : entry.counterparty ? shorten(entry.counterparty) : 'unknown',
    entry.coinbase ? '' : shorten(entry.txid),
    entry.sc_outcome ? describeOutcome(entry.sc_outcome) : '',
  ]);
  // A token's amounts have no unit of their own; fees are always in coins.
  const amount = result.asset === NATIVE_ASSET ? `amount (${COIN_SYMBOL})` : 'amount';
  return columns(
    ['height', 'time', 'in/out', amount, `fee (${COIN_SYMBOL})`, 'counterparty', 'txid', 'contract'],
    rows,
  );
}
