/** A contract call's outcome in a table cell: committed, returned non-zero, or failed with the reason, coloured. */
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import { type Html, html } from './html.js';

const outcomeText = (outcome: ContractCallOutcome | null): string =>
  outcome === null
    ? '—'
    : outcome.status === 'committed'
      ? 'committed'
      : outcome.status === 'returned'
        ? `returned ${outcome.code}`
        : `failed: ${outcome.message ?? ''}`;

export const outcomeCell = (outcome: ContractCallOutcome | null): Html =>
  html`<span class="outcome-${outcome?.status ?? 'none'}">${outcomeText(outcome)}</span>`;
