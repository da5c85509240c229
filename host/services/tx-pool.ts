/** The transaction pool (registered by the `mempool` plugin as `txPool`), as the miner, the RPC and peers see it. */

/** A transaction that entered the pool. */
export interface PoolEntry {
  txid: Uint8Array;
  /** Serialised size in bytes. */
  size: number;
  /** Fee in atomic units (0 for registrations). */
  fee: bigint;
  /** Submitted to this node (its RPC, its wallets) rather than relayed by peers or brought back by a reorganisation. */
  local: boolean;
}

export interface AddOptions {
  /** The transaction was submitted to this node: P2P sends it along a private stem first (docs/protocol.md). */
  local?: boolean;
}

export interface TxPoolService {
  /** Checks and admits a transaction; throws a TransactionError naming why it is refused. Returns the txid. */
  add(bytes: Uint8Array, options?: AddOptions): Uint8Array;
  /**
   * Same as add, with the proofs verified together with those of other submissions arriving meanwhile, in a batch on
   * worker threads (the RPC's way in).
   */
  addBatched(bytes: Uint8Array, options?: AddOptions): Promise<Uint8Array>;
  /**
   * Txids waiting, in the order a block should take them: registrations first, then by fee per byte. Transactions
   * held back (below) are left out.
   */
  pending(): Uint8Array[];
  /**
   * Keeps a pending transaction out of `pending()`, so out of block templates, until `stopHolding`: P2P holds back
   * a transaction still travelling its private stem, which a block of this node's would reveal it relayed.
   */
  holdBack(txid: Uint8Array): void;
  stopHolding(txid: Uint8Array): void;
  /** A pending transaction's bytes. */
  get(txid: Uint8Array): Uint8Array | undefined;
  has(txid: Uint8Array): boolean;
  /** The txid of a transaction's bytes; throws a TransactionError when they are not a transaction. */
  txidOf(bytes: Uint8Array): Uint8Array;
  /** Drops a pending transaction (a template found it invalid). */
  remove(txid: Uint8Array): void;
  readonly size: number;
  /** Calls `listener` for each transaction admitted (also those a reorganisation brings back); returns the removal. */
  onAdd(listener: (entry: PoolEntry) => void): () => void;
}
