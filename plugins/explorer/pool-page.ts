/** The pool page (`/explorer/pool`): the transactions waiting for a block, in the order a block would take them. */
import type { TxPoolService } from '../../host/services/tx-pool.js';
import { html } from './html.js';
import { amount, page, table, txLink } from './layout.js';
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
  table(
    'pool',
    ['Txid', 'Type', 'Size (bytes)', 'Fee'],
    view.transactions.map((tx) => [txLink(tx.txid), tx.type, tx.size, amount(tx.fee)]),
  )
}`;
  return page({ title: 'Pool' }, main);
}
