/** A question about history this node no longer holds (pruned) or never held (fast-synced past it). */
import { UmbraError } from '../../core-native/ts/errors.js';

export const HistoryErrorCode = {
  /** The state at a topoheight below the history floor. */
  StateNotHeld: 'history.state-not-held',
  /** A block body or transaction below the block floor (--prune-blocks). */
  BlockNotHeld: 'history.block-not-held',
} as const;
export type HistoryErrorCode = (typeof HistoryErrorCode)[keyof typeof HistoryErrorCode];

export class HistoryNotHeld extends UmbraError<HistoryErrorCode> {
  override readonly name = 'HistoryNotHeld';

  constructor(
    code: HistoryErrorCode,
    /** The topoheight asked about. */
    readonly topoheight: bigint,
    /** The first topoheight this node holds (state or block bodies, after the code). */
    readonly firstHeld: bigint,
  ) {
    const what = code === HistoryErrorCode.StateNotHeld ? 'the state' : 'the block bodies and transactions';
    super(
      code,
      `topoheight ${topoheight} is not held: this node keeps ${what} from topoheight ${firstHeld} on (older history was pruned or skipped by fast sync; ask an archive node)`,
    );
  }
}
