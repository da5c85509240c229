/**
 * SIMULATOR.Snapshot and SIMULATOR.Revert: a snapshot is the main chain's top, the pool's transactions and what the
 * premine had paid; reverting makes that block the top again (the blocks after it stay stored, off the main chain —
 * each block's state is its own version, so the state returns with it), puts back exactly the pool of then, and
 * tells the listeners (`umbra simulator` rebuilds its wallets' views). As with anvil, reverting to a snapshot uses
 * it up, and the snapshots taken after it.
 */
import type { ChainService } from '../../host/services/chain.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';

interface Snapshot {
  top: Uint8Array;
  pool: Uint8Array[];
  spent: Map<string, bigint>;
}

export interface SnapshotDeps {
  chain: ChainService;
  pool: TxPoolService;
  /** What the premine has paid per asset (fund-accounts.ts): restored with the chain. */
  spent: Map<string, bigint>;
  /** Runs a task while no block is being made. */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
}

export class Snapshots {
  private readonly taken = new Map<number, Snapshot>();
  private counter = 0;
  private readonly listeners = new Set<() => Promise<void>>();

  constructor(private readonly deps: SnapshotDeps) {}

  /** Takes a snapshot; returns its id (1, 2, …). */
  take(): Promise<number> {
    return this.deps.exclusive(async () => {
      const { chain, pool, spent } = this.deps;
      const id = ++this.counter;
      const txs = pool.pending().map((txid) => pool.get(txid)!);
      this.taken.set(id, { top: chain.top.id, pool: txs, spent: new Map(spent) });
      return id;
    });
  }

  /** Returns to snapshot `id`; false when there is no such snapshot (never taken, or used up). */
  revert(id: number): Promise<boolean> {
    return this.deps.exclusive(async () => {
      const snapshot = this.taken.get(id);
      if (!snapshot) return false;
      for (const later of [...this.taken.keys()]) if (later >= id) this.taken.delete(later);
      const { chain, pool, spent } = this.deps;
      await chain.rewindTo(snapshot.top);
      for (const txid of pool.pending()) pool.remove(txid);
      // Valid again: the chain is back where they were pending.
      for (const bytes of snapshot.pool) pool.add(bytes);
      spent.clear();
      for (const [asset, amount] of snapshot.spent) spent.set(asset, amount);
      for (const listener of this.listeners) await listener();
      return true;
    });
  }

  /** Calls `listener` after every revert (awaited before the revert answers). */
  onRevert(listener: () => Promise<void>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
