/**
 * The contract page (`/explorer/contract/<scid>`): code, string-keyed variables, balances per asset (as NODE.GetSC
 * reports them), and the installs and calls of the recent chain with their outcomes.
 */
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import { ACTIVITY_BLOCKS, type RecentTransactions } from './recent-transactions.js';
import type { ContractAction } from './transaction-summary.js';
import type { DaemonQuery } from './daemon-queries.js';
import { outcomeCell } from './call-outcome.js';
import { notFound } from './explorer-error.js';
import { html } from './html.js';
import { assetAmount, assetLabel, blockLink, facts, page, table, txLink, wholeId } from './layout.js';

export interface ContractView {
  scid: string;
  code: string;
  /** String-keyed variables: Uint64 values as numbers, String values as the hex of their bytes (as NODE.GetSC). */
  variables: Record<string, number | string>;
  balances: Record<string, number | string>;
  /** Installs and calls of the last ACTIVITY_BLOCKS blocks, newest first. */
  activity: ContractActivity[];
}

export interface ContractActivity {
  txid: string;
  height: number;
  block: string;
  action: ContractAction;
  outcome: ContractCallOutcome | null;
}

const HASH = /^[0-9a-fA-F]{64}$/;

export async function contractView(
  scid: string,
  sources: { query: DaemonQuery; recent: RecentTransactions },
): Promise<ContractView> {
  if (!HASH.test(scid)) throw notFound(`'${scid}' is not a contract id (SCID: 64 hex digits)`);
  const { query } = sources;
  const sc = await query('NODE.GetSC', { scid, code: true, variables: true });
  const wanted = scid.toLowerCase();
  const activity = sources.recent((tx) => tx.contract?.scid === wanted);
  const records =
    activity.length === 0 ? [] : (await query('NODE.GetTransaction', { txs_hashes: activity.map((a) => a.txid) })).txs;
  return {
    scid: wanted,
    code: sc.code,
    variables: sc.stringkeys,
    balances: sc.balances,
    activity: activity.map((tx, i) => ({
      txid: tx.txid,
      height: tx.height,
      block: tx.block,
      action: tx.contract!,
      outcome: records[i]?.sc_outcome ?? null,
    })),
  };
}

/** A String variable (hex of its bytes) as text too, when it is printable UTF-8. */
export function variableText(value: number | string): string {
  if (typeof value === 'number') return String(value);
  const text = Buffer.from(value, 'hex').toString('utf8');
  return /^[\P{C}\n\t]*$/u.test(text) && !text.includes('\uFFFD') ? `"${text}" (hex ${value})` : value;
}

export function renderContract(view: ContractView): string {
  const variables = Object.entries(view.variables);
  const balances = Object.entries(view.balances);
  const main = html`<h1>Contract</h1>
${facts([['SCID', wholeId(view.scid, 'SCID')]])}
<h2>Balances</h2>
${
  balances.length === 0
    ? html`<p>No balances.</p>`
    : table(
        'balances',
        ['Asset', 'Amount'],
        balances.map(([asset, atomic]) => [assetLabel(asset), assetAmount(BigInt(atomic), asset)]),
      )
}
<h2>Variables (${variables.length})</h2>
${
  variables.length === 0
    ? html`<p>No string-keyed variables.</p>`
    : html`${table(
        'variables',
        ['Key', 'Value'],
        variables.map(([key, value]) => [key, html`<span class="value">${variableText(value)}</span>`]),
      )}<p class="note">String values are shown as text when printable, with the hex of their bytes.</p>`
}
<h2>Installs and calls in the last ${ACTIVITY_BLOCKS} blocks</h2>
${
  view.activity.length === 0
    ? html`<p>None in that span.</p>`
    : table(
        'activity',
        ['Block', 'Txid', 'Action', 'Outcome'],
        view.activity.map((entry) => [
          blockLink(entry.block, entry.height),
          txLink(entry.txid),
          entry.action.kind === 'install' ? 'install' : `call ${entry.action.entrypoint ?? ''}`,
          outcomeCell(entry.outcome),
        ]),
      )
}
<h2>Code</h2>
<pre class="code">${view.code}</pre>`;
  return page({ title: `Contract ${view.scid.slice(0, 16)}…` }, main);
}
