/**
 * Why a pruning pass ends early. These never leave the pruners: the chain's pruner stops quietly when the node closes,
 * and the state pruner runs again in more passes when its marks outgrow their budget.
 */
import { UmbraError } from '../../core-native/ts/errors.js';

export const PruningErrorCode = {
  /** The node is closing; the next run finishes the work. */
  Stopped: 'pruning.stopped',
  /** One pass would mark more nodes than its memory budget allows. */
  MarksOverBudget: 'pruning.marks-over-budget',
} as const;
export type PruningErrorCode = (typeof PruningErrorCode)[keyof typeof PruningErrorCode];

export class PruningInterrupted extends UmbraError<PruningErrorCode> {
  override readonly name = 'PruningInterrupted';
}
