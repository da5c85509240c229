/**
 * The network's hash rate as GetInfo reports it (hashrate_1hr, _1d, _7d): the hashes the main chain's recent blocks
 * took, expected from their difficulty, over the time those blocks span. Computed once per top block, since GetInfo
 * is polled.
 */
import { HASHES_PER_DIFFICULTY } from '../../protocol/hash-rate.js';
import { toHex } from '../../protocol/bytes.js';
import type { ChainService } from '../../host/services/chain.js';

export const HASHRATE_WINDOWS_MS = { hour: 3_600_000n, day: 86_400_000n, week: 604_800_000n } as const;

export type NetworkHashrates = Record<keyof typeof HASHRATE_WINDOWS_MS, number>;

export class NetworkHashrate {
  private topId = '';
  private rates: NetworkHashrates = { hour: 0, day: 0, week: 0 };

  constructor(private readonly chain: ChainService) {}

  get(): NetworkHashrates {
    const top = this.chain.top;
    if (this.topId !== toHex(top.id)) {
      this.rates = this.compute();
      this.topId = toHex(top.id);
    }
    return this.rates;
  }

  /** One walk back from the top over the longest window, closing each window as the walk passes its start. */
  private compute(): NetworkHashrates {
    const top = this.chain.top;
    const rates: NetworkHashrates = { hour: 0, day: 0, week: 0 };
    const open = new Set(Object.keys(HASHRATE_WINDOWS_MS) as (keyof NetworkHashrates)[]);
    let work = 0n;
    let oldest = top;
    const rate = () => {
      const ms = Number(top.timestamp - oldest.timestamp);
      return ms > 0 ? Math.round((Number(work) * 100_000) / ms) / 100 : 0;
    };
    // The genesis block was not mined: the walk stops at height 1. The oldest block's own work was done before its
    // timestamp, outside the span, so it opens the span without counting.
    // A fast-synced node holds no blocks below its history floor: the walk stops there too.
    for (
      let height = top.height, meta = this.chain.metaAtTopo(height);
      height >= 1n && meta;
      meta = this.chain.metaAtTopo(--height)
    ) {
      for (const window of open)
        if (top.timestamp - meta.timestamp > HASHRATE_WINDOWS_MS[window]) {
          rates[window] = rate();
          open.delete(window);
        }
      if (open.size === 0) return rates;
      if (height < top.height) work += oldest.difficulty * HASHES_PER_DIFFICULTY;
      oldest = meta;
    }
    for (const window of open) rates[window] = rate();
    return rates;
  }
}
