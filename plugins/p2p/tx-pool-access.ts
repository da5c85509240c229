/**
 * The parts of the transaction pool and of the chain that P2P uses for transactions, looked up when needed: the
 * `mempool` plugin registers `txPool` when it starts (and may not run at all), and the chain offers transaction
 * bodies and extra transaction sources only where transactions are executed.
 */
import type { AwilixContainer } from 'awilix';
import type { ChainService } from '../../host/services/chain.js';

/** The `txPool` service as P2P uses it. */
export interface TxPoolAccess {
  /** Checks and admits a transaction; throws with the reason it is refused. Returns the txid. */
  add(bytes: Uint8Array): Uint8Array;
  get(txid: Uint8Array): Uint8Array | undefined;
  /** Txids waiting to be mined. */
  pending(): Uint8Array[];
}

/** The chain with its optional transaction-body lookups. */
export type ChainWithTransactions = ChainService & {
  /** Where the chain looks for the bodies of transactions a block lists that it has not stored. */
  addTransactionSource?(source: (txid: Uint8Array) => Uint8Array | undefined): void;
  /** A transaction stored with a block. */
  storedTransaction?(txid: Uint8Array): Uint8Array | undefined;
};

export function txPoolOf(container: AwilixContainer): () => TxPoolAccess | undefined {
  return () => (container.hasRegistration('txPool') ? container.resolve<TxPoolAccess>('txPool') : undefined);
}
