/**
 * The simulator's block producer: a block at once whenever transactions wait in the pool (checked every 50 ms), and
 * one every 18 s otherwise — or, with automining off, only when asked. Blocks go to the premine key, and mining is
 * serialised: a request while a block is being made waits for it (so does a revert, through `exclusive`). A block's
 * timestamp is the node clock's; a timestamp set for the next block, or a step from its parent's, moves the clock to
 * it just before the block is made.
 */
import type { Logger } from '../../host/logger.js';
import type { ChainService } from '../../host/services/chain.js';
import type { NodeClock } from '../../host/services/clock.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';
import type { MiningService } from '../../host/services/mining.js';

const POLL_MS = 50;
const IDLE_BLOCK_MS = 18_000;

export class AutoMiner {
  private timer: NodeJS.Timeout | undefined;
  private lastBlock = Date.now();
  private running: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private nextTimestamp: bigint | undefined;

  constructor(
    private readonly chain: ChainService,
    private readonly clock: NodeClock,
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

  /** The next block's timestamp (ms), whoever asks for the block. */
  setNextTimestamp(ms: bigint): void {
    this.nextTimestamp = ms;
  }

  /**
   * Mines `count` blocks now (after any block in progress); with `stepMs`, each block's timestamp is its parent's plus
   * `stepMs`. Returns their ids.
   */
  mine(count: number, stepMs?: bigint): Promise<string[]> {
    this.pending++;
    return this.exclusive(async () => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const at = this.nextTimestamp ?? (stepMs === undefined ? undefined : this.chain.top.timestamp + stepMs);
        this.nextTimestamp = undefined;
        if (at !== undefined) this.clock.set(at);
        ids.push(await this.mining.mineWithoutWork(this.minerKey));
        this.lastBlock = Date.now();
      }
      return ids;
    }).finally(() => this.pending--);
  }

  /** Runs `task` when no block is being made, and makes none until it is done. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const next = this.running.then(task);
    this.running = next.catch(() => undefined);
    return next;
  }
}
