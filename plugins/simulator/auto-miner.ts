/**
 * The simulator's block producer: a block at once whenever transactions wait in the pool (checked every 50 ms), and
 * one every 18 s otherwise — or, with automining off, only when asked. Blocks go to the premine key, and mining is
 * serialised: a request while a block is being made waits for it.
 */
import type { Logger } from '../../host/logger.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';
import type { MiningService } from '../../host/services/mining.js';

const POLL_MS = 50;
const IDLE_BLOCK_MS = 18_000;

export class AutoMiner {
  private timer: NodeJS.Timeout | undefined;
  private lastBlock = Date.now();
  private running: Promise<unknown> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly mining: MiningService,
    private readonly pool: () => TxPoolService | undefined,
    private readonly minerKey: Uint8Array,
    private readonly logger: Logger,
  ) {}

  /** Starts mining on its own (automine). */
  start(): void {
    this.timer = setInterval(() => {
      const waiting = (this.pool()?.size ?? 0) > 0;
      // A block being made takes what waits now; asking again would only add an empty block.
      if (this.pending > 0) return;
      if (waiting || Date.now() - this.lastBlock >= IDLE_BLOCK_MS)
        void this.mine(1).catch((error: Error) => this.logger.warn(`automine: ${error.message}`));
    }, POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Mines `count` blocks now (after any block in progress); returns their ids. */
  mine(count: number): Promise<string[]> {
    this.pending++;
    const next = this.running
      .then(async () => {
        const ids: string[] = [];
        for (let i = 0; i < count; i++) {
          ids.push(await this.mining.mineWithoutWork(this.minerKey));
          this.lastBlock = Date.now();
        }
        return ids;
      })
      .finally(() => this.pending--);
    this.running = next.catch(() => undefined);
    return next;
  }
}
