/**
 * Transactions travel with the blocks that list them: a node sending a block attaches the bodies (from the chain's
 * store or the pool), and a node receiving one lends the bodies to the chain while it validates the block. The
 * bodies are paired with the block's txid list by position; the chain checks that each hashes to its id.
 */
import type { Block } from '../../protocol/block.js';
import { toHex } from '../../protocol/bytes.js';
import type { ChainService } from '../../host/services/chain.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';

export class BlockTransactions {
  private readonly lent = new Map<string, Uint8Array>();

  constructor(
    private readonly chain: ChainService,
    private readonly pool: () => TxPoolService | undefined,
  ) {
    chain.addTransactionSource((txid) => this.lent.get(toHex(txid)));
  }

  /** The bodies of a block's transactions, or undefined when this node lacks one of them. */
  bodiesOf(block: Block): Uint8Array[] | undefined {
    const bodies: Uint8Array[] = [];
    for (const txid of block.txHashes) {
      const body = this.chain.storedTransaction(txid) ?? this.pool()?.get(txid);
      if (!body) return undefined;
      bodies.push(body);
    }
    return bodies;
  }

  /** Runs `add` (the chain validating `block`) with the block's transaction bodies available to the chain. */
  async lend<T>(block: Block, bodies: Uint8Array[], add: () => Promise<T>): Promise<T> {
    const keys = block.txHashes.slice(0, bodies.length).map((txid, i) => {
      const key = toHex(txid);
      this.lent.set(key, bodies[i]!);
      return key;
    });
    try {
      return await add();
    } finally {
      for (const key of keys) this.lent.delete(key);
    }
  }
}
