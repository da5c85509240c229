/**
 * What a contract call did when its block executed it — an Umbra extension field, `sc_outcome`, of NODE.GetTransaction
 * records and of wallet history entries (docs/rpc.md § NODE.GetTransaction). The node that executes the block
 * records it; a wallet reads it back, so a call that failed is never silent. NODE.GetGasEstimate reports a trial
 * run's outcome in the same words (outcomeFailure).
 */
export interface ContractCallOutcome {
  /**
   * `committed`: the entry point returned 0 and its changes were kept; `returned`: it returned a non-zero value
   * (`code`) and its changes were discarded; `failed`: an error stopped it (`message`, `line`), changes discarded.
   */
  status: 'committed' | 'returned' | 'failed';
  /** The Uint64 the entry point returned (0 when committed), when it returned one (exact up to 2^53, a JSON number). */
  code?: number;
  /** Why the call did not commit. */
  message?: string;
  /** The source line where it failed, when the error has one. */
  line?: number;
  /** Compute gas the call used. */
  gascompute: number;
}

/** Why an entry point's return does not commit, `returned` being the value in words (`7`, `a String`, `no value`). */
export const returnRefusal = (returned: string): string =>
  `the entry point returned ${returned} (only Uint64 0 commits)`;

/** Why a call did not commit, in the words the chain records and a trial run reports; undefined when it committed. */
export function outcomeFailure(outcome: ContractCallOutcome): string | undefined {
  if (outcome.status === 'committed') return undefined;
  return outcome.status === 'returned' ? returnRefusal(String(outcome.code)) : outcome.message;
}
