/**
 * The figures of NODE.GetInfo that only change with the chain's top (difficulty, average block time, supply,
 * transaction count), computed once per top block: GetInfo is what scripts poll, so it must cost next to nothing.
 * Running totals (rewards, transactions) follow the main chain block by block and are recounted from genesis only
 * after a reorganisation.
 */
import { blockReward } from '../../../protocol/chain-params.js';
import type { Chain } from '../chain.js';
import type { BlockMeta } from '../chain-store.js';

export interface TopFigures {
  difficulty: number;
  averageBlockTimeS: number;
  /** Atomic units created so far: the premine plus every block's base reward. */
  supply: bigint;
  txCount: number;
}

/** GetInfo's averageblocktime50 averages the intervals between the last 50 mined blocks. */
const AVERAGE_SPAN = 50n;

/**
 * Mean seconds between the last AVERAGE_SPAN blocks actually mined: the genesis block's fixed timestamp is never an
 * end of an interval. 0 while fewer than two blocks have been mined.
 */
function averageBlockTimeS(chain: Chain, top: BlockMeta): number {
  const mined = top.height - 1n;
  // A fast-synced node holds no blocks below its history floor: the span ends there.
  const held = top.height - chain.historyFloor();
  const span = [mined, AVERAGE_SPAN, held].reduce((a, b) => (b < a ? b : a));
  if (span <= 0n) return 0;
  const from = chain.metaAtTopo(top.height - span)!;
  return Number(top.timestamp - from.timestamp) / Number(span) / 1000;
}

export class ChainSummary {
  private topId = '';
  private figures!: TopFigures;
  /** Totals through `countedMeta`. */
  private counted: { meta: BlockMeta; rewards: bigint; txs: number } | undefined;

  of(chain: Chain): TopFigures {
    const top = chain.top;
    const id = Buffer.from(top.id).toString('hex');
    if (id === this.topId) return this.figures;
    const { rewards, txs } = this.totals(chain, top);
    this.figures = {
      difficulty: Number(chain.difficultyAfter(top)),
      averageBlockTimeS: averageBlockTimeS(chain, top),
      supply: chain.params.premineAmount + rewards,
      txCount: txs,
    };
    this.topId = id;
    return this.figures;
  }

  private totals(chain: Chain, top: BlockMeta): { rewards: bigint; txs: number } {
    let start = this.counted;
    // Continue from the last count while it is still an ancestor on the main chain; recount otherwise.
    const stillMain =
      start &&
      start.meta.height <= top.height &&
      Buffer.from(chain.metaAtTopo(start.meta.height)?.id ?? []).equals(start.meta.id);
    if (!stillMain) start = { meta: chain.metaAtTopo(0n)!, rewards: 0n, txs: 0 };
    let { rewards, txs } = start!;
    for (let h = start!.meta.height + 1n; h <= top.height; h++) {
      // Below a fast-synced node's history floor no block is held: its reward is known from its height, its
      // transactions are not counted.
      const meta = chain.metaAtTopo(h);
      rewards += meta ? meta.reward : blockReward(h);
      txs += meta?.txCount ?? 0;
    }
    this.counted = { meta: top, rewards, txs };
    return { rewards, txs };
  }
}
