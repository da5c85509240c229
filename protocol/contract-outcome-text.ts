/** A contract transaction's recorded outcome for people: `committed`, `returned N`, `failed: message (line L)`. */
import type { ContractCallOutcome } from './contract-outcome.js';

export function describeOutcome(outcome: ContractCallOutcome): string {
  switch (outcome.status) {
    case 'committed':
      return 'committed';
    case 'returned':
      return `returned ${outcome.code ?? '(no value)'}`;
    case 'failed':
      return `failed: ${outcome.message ?? 'no reason given'}${outcome.line === undefined ? '' : ` (line ${outcome.line})`}`;
  }
}
