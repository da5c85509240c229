/**
 * Where blocks from peers enter the chain, whether announced or fetched by sync. The block must be the one asked
 * for (its id is the hash of its bytes), and then the chain's addBlock decides everything else: a block it rejects
 * is the sender's misbehaviour. Some cases are not: a block this node already has, a block on a fork below this
 * node's stable height (honest peers on a long-separated fork hold those), and a block from a clock ahead of ours.
 */
import type { Core } from '../../core-native/ts/core.js';
import { UmbraError } from '../../core-native/ts/errors.js';
import { decodeBlock, type Block } from '../../protocol/block.js';
import { equalBytes, toHex } from '../../protocol/bytes.js';
import { MAX_FUTURE_DRIFT_MS } from '../../protocol/chain-params.js';
import type { AddBlockOutcome } from '../../host/services/chain.js';
import { PENALTY } from './bans.js';
import { P2pErrorCode } from './p2p-errors.js';
import type { BlockTransactions } from './block-transactions.js';
import type { Peer } from './peer.js';
import type { ChainService } from '../../host/services/chain.js';
import type { Body } from './wire/messages.js';

export type BlockBody = Body<'blocks'>['blocks'][number];

type IntakeResult = AddBlockOutcome | { status: 'known' } | { status: 'below-stable' } | { status: 'too-early' };

/** Longest a block from a peer with a fast clock is held before the chain is asked to take it, ms. */
const MAX_HOLD_MS = 5_000;

/** A peer sent a block that is not acceptable; it has been penalised. */
export class BlockRefused extends UmbraError<P2pErrorCode> {
  override readonly name = 'BlockRefused';
  constructor(message: string) {
    super(P2pErrorCode.BlockRefused, message);
  }
}

export type Penalise = (peer: Peer, points: number, reason: string) => void;

export class BlockIntake {
  constructor(
    private readonly chain: ChainService,
    private readonly core: Core,
    private readonly transactions: BlockTransactions,
    private readonly penalise: Penalise,
  ) {}

  async add(peer: Peer, expectedId: Uint8Array, body: BlockBody): Promise<IntakeResult> {
    const id = this.core.sha3_256(body.block);
    if (!equalBytes(id, expectedId))
      return this.refuse(peer, `sent block ${toHex(id)} when asked for ${toHex(expectedId)}`);
    peer.knownBlocks.add(id);
    if (this.chain.meta(id)) return { status: 'known' };
    let block: Block;
    try {
      block = decodeBlock(body.block);
    } catch (error) {
      return this.refuse(peer, `sent a malformed block: ${(error as Error).message}`);
    }
    const stable = this.chain.stableHeight();
    if (stable > 0n && block.height <= stable) return { status: 'below-stable' };
    // The chain takes blocks at most 50 ms ahead of the local clock: a block from a peer whose clock runs a little
    // ahead is held until it is acceptable; one far ahead is left out, not punished (clocks are not misbehaviour).
    const aheadMs = (): number => Number(block.timestamp - BigInt(Date.now()) - MAX_FUTURE_DRIFT_MS);
    if (aheadMs() > MAX_HOLD_MS) return { status: 'too-early' };
    // Timers may fire a millisecond early: wait again until the clock has really passed, or the chain would refuse
    // the block as from the future and the honest sender would be punished.
    for (let ahead = aheadMs(); ahead > 0; ahead = aheadMs())
      await new Promise((resolve) => setTimeout(resolve, ahead));
    try {
      return await this.transactions.lend(block, body.txs, () => this.chain.addBlock(body.block, peer.host));
    } catch (error) {
      // Another peer's copy may have been added while this one waited in the chain's queue.
      if (this.chain.meta(id)) return { status: 'known' };
      return this.refuse(peer, `sent invalid block ${toHex(id)}: ${(error as Error).message}`);
    }
  }

  private refuse(peer: Peer, reason: string): never {
    this.penalise(peer, PENALTY.invalidData, reason);
    throw new BlockRefused(reason);
  }
}
