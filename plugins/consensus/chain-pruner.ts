/**
 * Pruning the chain's history while the node runs. When the main chain's top is far enough above the history floor,
 * a cycle raises the floor to top − depth, prunes the state versions below that block's (state-pruner.ts) and the
 * balance versions they alone read (state/balance-index.ts) and, with
 * --prune-blocks, drops the block bodies below it. Cycles run one at a time in the background; their writes go
 * between two stored blocks, so block processing waits for one batch at most.
 */
import { ConfigError, ConfigErrorCode, DEFAULT_PRUNE_DEPTH, type UmbraConfig } from '../../host/config/schema.js';
import type { Logger } from '../../host/logger.js';
import { UmbraError } from '../../core-native/ts/errors.js';
import type { Chain } from './chain.js';
import { PruningErrorCode, PruningInterrupted } from './pruning-errors.js';
import { putHistoryFloor } from './state/history-floor.js';
import type { StateDb } from './state/state-db.js';
import { StatePruner } from './state/state-pruner.js';

export interface PruningPolicy {
  /** How many blocks of state to keep given the current history floor, or null to keep everything. */
  depth(historyFloor: bigint): bigint | null;
  readonly pruneBlocks: boolean;
}

/**
 * The pruning the config asks for: --prune-depth N; else none for a node whose history starts at genesis (an archive
 * node) and DEFAULT_PRUNE_DEPTH for one whose history starts later (fast-synced); --archive never prunes.
 */
export function pruningPolicy(config: Pick<UmbraConfig, 'archive' | 'pruneDepth' | 'pruneBlocks'>): PruningPolicy {
  if (config.archive && config.pruneDepth > 0)
    throw new ConfigError(
      ConfigErrorCode.Conflict,
      '--archive keeps every state version: it cannot be combined with --prune-depth',
    );
  if (config.archive && config.pruneBlocks)
    throw new ConfigError(
      ConfigErrorCode.Conflict,
      '--archive keeps every block: it cannot be combined with --prune-blocks',
    );
  return {
    depth: (historyFloor) => {
      if (config.archive) return null;
      if (config.pruneDepth > 0) return BigInt(config.pruneDepth);
      return historyFloor > 0n ? BigInt(DEFAULT_PRUNE_DEPTH) : null;
    },
    pruneBlocks: config.pruneBlocks,
  };
}

const stopped = (): PruningInterrupted =>
  new PruningInterrupted(PruningErrorCode.Stopped, 'pruning stopped: the node is closing');

/** Heights whose bodies one write drops. */
const BODY_HEIGHTS_PER_BATCH = 100n;

export interface ChainPrunerDeps {
  chain: Chain;
  stateDb: StateDb;
  policy: PruningPolicy;
  logger: Logger;
}

export class ChainPruner {
  private running: Promise<void> | undefined;
  private again = false;
  private stopping = false;
  private unsubscribe: (() => void) | undefined;
  private readonly pruner: StatePruner;
  /** Lets the event loop run between slices of work; throws once the node is closing. */
  private readonly pause = async (): Promise<void> => {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.stopping) throw stopped();
  };

  constructor(private readonly deps: ChainPrunerDeps) {
    this.pruner = new StatePruner(deps.stateDb, { pause: this.pause });
  }

  /** Prunes now if due (catching up after a restart) and after every main-chain block. */
  start(): void {
    this.unsubscribe = this.deps.chain.onBlock((_meta, outcome) => {
      if (outcome.status === 'main') this.schedule();
    });
    this.schedule();
  }

  /** Stops after the current batch; the next start goes on from there. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    await this.running;
  }

  /** Resolves when no cycle runs or is due (for tests and benchmarks). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private schedule(): void {
    if (this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.cycle()
      .catch((error: Error) => {
        if (!UmbraError.is(error, PruningErrorCode.Stopped)) this.deps.logger.warn(`pruning failed: ${error.message}`);
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.schedule();
        }
      });
  }

  private async cycle(): Promise<void> {
    const { chain, policy, logger } = this.deps;
    const floor = chain.historyFloor();
    const depth = policy.depth(floor);
    if (depth === null) return;
    const target = chain.top.height - depth;
    // A cycle reads the newest state and the changes of the kept blocks: run it once the floor can rise by a
    // quarter of the depth, so that its reads per block stay a few times the block's own changes.
    const step = depth / 4n > 0n ? depth / 4n : 1n;
    if (target < floor + step) return;
    const keep = chain.metaAtTopo(target)!;
    await chain.exclusive(async () => {
      const batch = chain.blocks.store.batch();
      putHistoryFloor(batch, target);
      await batch.write();
    });
    const report = await this.pruner.prune(keep.stateVersion, (write) => chain.exclusive(write));
    const entries = await chain.balanceIndex.prune(target, (write) => chain.exclusive(write), this.pause);
    logger.info(
      `pruned the state below topoheight ${target}: ${report.versionsDropped} versions, ${report.nodesDeleted} nodes and ${entries} balance index entries dropped`,
    );
    if (policy.pruneBlocks) await this.dropBodiesBelow(target);
  }

  private async dropBodiesBelow(target: bigint): Promise<void> {
    const { chain } = this.deps;
    for (let height = chain.blocks.blockFloor(); height < target; ) {
      const end = height + BODY_HEIGHTS_PER_BATCH < target ? height + BODY_HEIGHTS_PER_BATCH : target;
      await chain.exclusive(async () => {
        const batch = chain.blocks.store.batch();
        for (let h = height; h < end; h++) await chain.blocks.dropBodiesAt(batch, h);
        await batch.write();
      });
      height = end;
      if (this.stopping) throw stopped();
    }
    this.deps.logger.info(`dropped the block bodies below topoheight ${target}`);
  }
}
