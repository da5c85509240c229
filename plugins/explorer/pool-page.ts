/** The pool page (`/explorer/pool`): the transactions waiting for a block, in the order a block would take them. */
import type { TxPoolService } from '../../host/services/tx-pool.js';
import { html } from './html.js';
import { page, txLink } from './layout.js';
import { summariseTransaction, type TransactionSummary } from './transaction-summary.js';

/** Most pool entries one page lists. */
export const POOL_LIMIT = 500;

export interface PoolView {
  size: number;
  transactions: TransactionSummary[];
}

export function poolView(pool: TxPoolService | undefined): PoolView {
  if (!pool) return { size: 0, transactions: [] };
  const transactions: TransactionSummary[] = [];
  for (const txid of pool.pending().slice(0, POOL_LIMIT)) {
    const bytes = pool.get(txid);
    // A transaction mined between pending() and get() has simply left the pool.
    if (bytes) transactions.push(summariseTransaction(txid, bytes));
  }
  return { size: pool.size, transactions };
}

export function renderPool(view: PoolView): string {
  const main = html`<h1>Transaction pool</h1>
<p>${view.size} transaction${view.size === 1 ? '' : 's'} waiting${view.size > view.transactions.length ? html`; the first ${view.transactions.length} are listed` : ''}.</p>
${
  view.transactions.length > 0 &&
  html`<table id="pool"><thead><tr><th>Txid</th><th>Type</th><th>Size (bytes)</th><th>Fee (atomic units)</th></tr></thead><tbody>${view.transactions.map(
    (tx) => html`<tr><td>${txLink(tx.txid)}</td><td>${tx.type}</td><td>${tx.size}</td><td>${tx.fee}</td></tr>`,
  )}</tbody></table>`
}`;
  return page({ title: 'Pool' }, main);
}
