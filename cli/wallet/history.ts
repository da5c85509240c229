/**
 * `wallet history [--in] [--out] [--asset SCID] [--limit N]`: the wallet's transfers of one asset, brought up to date
 * first — a table for people (txids shortened), every field in full in JSON. A transaction that left the chain (in
 * neither the daemon's pool nor a block) is `dropped`, and the command that sends it again is offered.
 */
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import type { HistoryEntry } from '../../wallet/history-entry.js';
import type { TransferHistory } from '../../wallet/transfer-history.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';
import { COIN_SYMBOL, formatCoins } from '../../protocol/coin-amount.js';
import { describeOutcome } from '../../protocol/contract-outcome-text.js';
import { sendAgainCommand } from './send-again.js';
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
  /** -1 while the transaction waits in the pool, and once it is dropped. */
  height: number;
  /** In a block; sent and waiting in the pool; or in neither the pool nor the chain, having spent nothing. */
  status: 'mined' | 'pending' | 'dropped';
  time: string;
  direction: 'in' | 'out';
  coinbase: boolean;
  /** Atomic units. */
  amount: bigint;
  fee: bigint;
  /**
   * The contract of a contract install or call, or of a credit one explains; otherwise the sender of an incoming entry
   * (when known) or the destination of an outgoing one.
   */
  counterparty: string;
  /** The contract (the counterparty) of a contract install or call, with a call's entry point. */
  contract?: { scid: string; entrypoint?: string };
  txid: string;
  sc_outcome?: ContractCallOutcome;
  /** For a dropped transfer: the command that sends it again (with the wallet flags left out). */
  send_again?: string;
}

export interface HistoryResult {
  asset: string;
  entries: HistoryLine[];
}

const status = (entry: HistoryEntry): HistoryLine['status'] =>
  entry.blockhash !== '' ? 'mined' : entry.dropped ? 'dropped' : 'pending';

const counterparty = (entry: HistoryEntry): string =>
  entry.coinbase ? '' : (entry.contract?.scid ?? (entry.incoming ? entry.sender : entry.destination));

const line = (asset: string, entry: HistoryEntry, history: TransferHistory): HistoryLine => ({
  height: entry.blockhash === '' ? -1 : entry.height,
  status: status(entry),
  time: entry.time,
  direction: entry.incoming || entry.coinbase ? 'in' : 'out',
  coinbase: entry.coinbase,
  amount: entry.amount,
  fee: entry.fees,
  counterparty: counterparty(entry),
  ...(entry.contract && {
    contract: {
      scid: entry.contract.scid,
      ...(entry.contract.entrypoint !== undefined && { entrypoint: entry.contract.entrypoint }),
    },
  }),
  txid: entry.txid,
  ...(entry.sc_outcome ? { sc_outcome: entry.sc_outcome } : {}),
  ...(entry.dropped && { send_again: sendAgainCommand(entry, asset, history) }),
});

export async function history(session: WalletSession, options: HistoryOptions): Promise<HistoryResult> {
  await syncHistory(session);
  const asset = options.asset ?? NATIVE_ASSET;
  const both = options.in === options.out;
  const { history } = session.wallet;
  const lines = history
    .entries(asset)
    .map((entry) => line(asset, entry, history))
    .filter((entry) => both || (entry.direction === 'in') === Boolean(options.in));
  return { asset, entries: options.limit === undefined ? lines : lines.slice(-options.limit) };
}

/** `abcdef12…34567890`: enough of a long id to recognise it. */
export const shorten = (id: string): string => (id.length > 20 ? `${id.slice(0, 8)}…${id.slice(-8)}` : id);

export function historyText(result: HistoryResult): string {
  if (result.entries.length === 0) return 'no transfers yet\n';
  const rows = result.entries.map((entry) => [
    entry.status === 'mined' ? String(entry.height) : entry.status,
    // The genesis block has no time of its own (its timestamp is 0).
    entry.height === 0 ? 'genesis' : entry.time.slice(0, 19).replace('T', ' '),
    entry.direction,
    formatCoins(entry.amount),
    entry.direction === 'out' ? formatCoins(entry.fee) : '',
    counterpartyText(entry),
    entry.coinbase ? '' : shorten(entry.txid),
    entry.sc_outcome ? describeOutcome(entry.sc_outcome) : '',
  ]);
  // A token's amounts have no unit of their own; fees are always in coins.
  const amount = result.asset === NATIVE_ASSET ? `amount (${COIN_SYMBOL})` : 'amount';
  return (
    columns(['height', 'time', 'in/out', amount, `fee (${COIN_SYMBOL})`, 'counterparty', 'txid', 'contract'], rows) +
    droppedText(result.entries)
  );
}

/** Who the entry was with: a contract with the entry point called, a shortened address, the coinbase, or unknown. */
function counterpartyText(entry: HistoryLine): string {
  if (entry.coinbase) return 'coinbase';
  if (!entry.counterparty) return 'unknown';
  if (entry.contract) return `${shorten(entry.contract.scid)} ${entry.contract.entrypoint ?? '(install)'}`;
  return shorten(entry.counterparty);
}

/** What became of dropped transactions, and how to send them again. */
function droppedText(entries: readonly HistoryLine[]): string {
  const dropped = new Map<string, string[]>();
  for (const entry of entries)
    if (entry.status === 'dropped')
      dropped.set(entry.txid, [...(dropped.get(entry.txid) ?? []), ...(entry.send_again ? [entry.send_again] : [])]);
  return [...dropped]
    .map(
      ([txid, commands]) =>
        `\ndropped ${txid}: the daemon holds it in neither its pool nor its chain, so it spent nothing; ${
          commands.length > 0
            ? `to send it again:\n${commands.map((command) => `  ${command}\n`).join('')}`
            : 'send it again\n'
        }`,
    )
    .join('');
}
