/**
 * The header chain a light client has verified, in memory: consecutive headers from its trusted start (genesis or a
 * checkpoint) to its top, and the timestamp of the block before the start (the difficulty rule reads a block's two
 * predecessors). A chain never changes: a longer or heavier one is a new chain, kept only once it is saved.
 */
import type { ChainHeader } from '../../protocol/chain/header-chain.js';
import type { NetworkName } from '../../protocol/network.js';

export interface ChainStart {
  network: NetworkName;
  /** Timestamp of the block before the first header; null when the first header is genesis. */
  parentTimestamp: bigint | null;
}

export class VerifiedChain {
  constructor(
    readonly start: ChainStart,
    /** At least the first header; each one's height one more than the one before. */
    private readonly headers: readonly ChainHeader[],
  ) {}

  get first(): ChainHeader {
    return this.headers[0]!;
  }

  get top(): ChainHeader {
    return this.headers[this.headers.length - 1]!;
  }

  /** The header at `height`, if the chain holds it. */
  at(height: bigint): ChainHeader | undefined {
    const index = height - this.first.height;
    return index >= 0n && index < BigInt(this.headers.length) ? this.headers[Number(index)] : undefined;
  }

  /** The timestamp of the block before the one at `height` (held, or the start's parent). */
  parentTimestamp(height: bigint): bigint | null {
    return height === this.first.height ? this.start.parentTimestamp : this.at(height - 1n)!.timestamp;
  }

  /** This chain up to `height` (a height it holds) followed by `branch`. */
  withBranch(height: bigint, branch: readonly ChainHeader[]): VerifiedChain {
    const kept = this.headers.slice(0, Number(height - this.first.height) + 1);
    return new VerifiedChain(this.start, kept.concat(branch));
  }

  /** Every header, first to top. */
  all(): readonly ChainHeader[] {
    return this.headers;
  }
}
