/**
 * Which miners mined the main chain's last blocks: the ordinary miniblocks of the last SHARE_BLOCKS blocks counted by
 * the key hash they carry (the final miniblock names no miner). Counted once per top block.
 */
import { toHex } from '../../protocol/bytes.js';
import type { ChainService } from '../../host/services/chain.js';
import { SHARE_BLOCKS } from '../../host/services/miners.js';

export class MinerShares {
  private topId = '';
  private counts = new Map<string, number>();
  private total = 0;

  constructor(private readonly chain: ChainService) {}

  /** The part (0..1) of those miniblocks carrying `keyHash` (16 bytes). */
  shareOf(keyHash: Uint8Array): number {
    this.recount();
    return this.total === 0 ? 0 : (this.counts.get(toHex(keyHash)) ?? 0) / this.total;
  }

  private recount(): void {
    const top = this.chain.top;
    if (this.topId === toHex(top.id)) return;
    this.counts = new Map();
    this.total = 0;
    const from = top.height > BigInt(SHARE_BLOCKS) ? top.height - BigInt(SHARE_BLOCKS) + 1n : 1n;
    for (let height = from; height <= top.height; height++) {
      // A fast-synced node holds no blocks below its history floor.
      const meta = this.chain.metaAtTopo(height);
      const block = meta && this.chain.block(meta.id);
      for (const mb of block?.miniblocks ?? []) {
        if (mb.final) continue;
        const key = toHex(mb.keyHash);
        this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
        this.total++;
      }
    }
    this.topId = toHex(top.id);
  }
}
