/**
 * The contract page (`/explorer/contract/<scid>`): code, string-keyed variables, balances per asset (as NODE.GetSC
 * reports them), and the installs and calls of the recent chain with their outcomes.
 */
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import { ACTIVITY_BLOCKS, type ContractActivity } from './contract-activity.js';
import type { DaemonQuery } from './daemon-queries.js';
import { notFound } from './explorer-error.js';
import { html } from './html.js';
import { assetLabel, blockLink, facts, hash, page, txLink } from './layout.js';

export interface ContractView {
  scid: string;
  code: string;
  /** String-keyed variables: Uint64 values as numbers, String values as the hex of their bytes (as NODE.GetSC). */
  variables: Record<string, number | string>;
  balances: Record<string, number | string>;
  activity: (ContractActivity & { outcome: ContractCallOutcome | null })[];
}

const HASH = /^[0-9a-fA-F]{64}$/;

export async function contractView(
  scid: string,
  sources: { query: DaemonQuery; activity(scid: string): ContractActivity[] },
): Promise<ContractView> {
  if (!HASH.test(scid)) throw notFound(`'${scid}' is not a contract id (SCID: 64 hex digits)`);
  const { query } = sources;
  const sc = await query('NODE.GetSC', { scid, code: true, variables: true });
  const activity = sources.activity(scid);
  const records =
    activity.length === 0 ? [] : (await query('NODE.GetTransaction', { txs_hashes: activity.map((a) => a.txid) })).txs;
  return {
    scid: scid.toLowerCase(),
    code: sc.code,
    variables: sc.stringkeys,
    balances: sc.balances,
    activity: activity.map((entry, i) => ({ ...entry, outcome: records[i]?.sc_outcome ?? null })),
  };
}

/** A String variable (hex of its bytes) as text too, when it is printable UTF-8. */
export function variableText(value: number | string): string {
  if (typeof value === 'number') return String(value);
  const text = Buffer.from(value, 'hex').toString('utf8');
  return /^[\P{C}\n\t]*$/u.test(text) && !text.includes('\uFFFD') ? `"${text}" (hex ${value})` : value;
}

const outcomeText = (outcome: ContractCallOutcome | null): string =>
  outcome === null
    ? '—'
    : outcome.status === 'committed'
      ? 'committed'
      : outcome.status === 'returned'
        ? `returned ${outcome.code}`
        : `failed: ${outcome.message ?? ''}`;

export function renderContract(view: ContractView): string {
  const variables = Object.entries(view.variables);
  const balances = Object.entries(view.balances);
  const main = html`<h1>Contract</h1>
${facts([['SCID', hash(view.scid)]])}
<h2>Balances</h2>
${
  balances.length === 0
    ? html`<p>No balances.</p>`
    : html`<table id="balances"><thead><tr><th>Asset</th><th>Amount (atomic units)</th></tr></thead><tbody>${balances.map(
        ([asset, amount]) => html`<tr><td>${assetLabel(asset)}</td><td>${amount}</td></tr>`,
      )}</tbody></table>`
}
<h2>Variables (${variables.length})</h2>
${
  variables.length === 0
    ? html`<p>No string-keyed variables.</p>`
    : html`<table id="variables"><thead><tr><th>Key</th><th>Value</th></tr></thead><tbody>${variables.map(
        ([key, value]) => html`<tr><td>${key}</td><td class="value">${variableText(value)}</td></tr>`,
      )}</tbody></table><p class="note">String values are shown as text when printable, with the hex of their bytes.</p>`
}
<h2>Installs and calls in the last ${ACTIVITY_BLOCKS} blocks</h2>
${
  view.activity.length === 0
    ? html`<p>None in that span.</p>`
    : html`<table id="activity"><thead><tr><th>Block</th><th>Txid</th><th>Action</th><th>Outcome</th></tr></thead><tbody>${view.activity.map(
        (entry) =>
          html`<tr><td>${blockLink(entry.block, entry.height)}</td><td>${txLink(entry.txid)}</td><td>${entry.action.kind === 'install' ? 'install' : `call ${entry.action.entrypoint ?? ''}`}</td><td class="outcome-${entry.outcome?.status ?? 'none'}">${outcomeText(entry.outcome)}</td></tr>`,
      )}</tbody></table>`
}
<h2>Code</h2>
<pre class="code">${view.code}</pre>`;
  return page({ title: `Contract ${view.scid.slice(0, 16)}…` }, main);
}
