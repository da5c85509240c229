/**
 * The pool of transactions waiting for a block (docs/protocol.md § Transactions, "The transaction pool"). Admission decodes strictly, checks the size,
 * the fee (outside the simulator), and asks the chain whether the transaction could go into the next block — the
 * same rules block execution applies (proofs, reference block, nonce heights, registrations, contract arguments).
 * A proof nonce or a registered key is pending at most once. After every new main-chain block the pool drops what the
 * block included and re-checks the rest against the new top, dropping what has become invalid or expired; after a
 * reorganisation, the transactions of the abandoned blocks come back if they are still valid.
 *
 * Order for templates: registrations first, then transfers by fee per byte, highest first (then oldest first).
 */
import { toHex } from '../../protocol/bytes.js';
import type { NetworkName } from '../../protocol/network.js';
import { minimumFee, transferFee } from '../../protocol/transfer-checks.js';
import { TransactionError, TransactionErrorCode } from '../../protocol/transaction-errors.js';
import {
  decodeTransaction,
  encodeTransactionHeader,
  MAX_TX_BYTES,
  TxType,
  type Transaction,
} from '../../protocol/transaction.js';
import { FairSlices } from '../../host/fair-slices.js';
import type { ChainService } from '../../host/services/chain.js';
import type { AddOptions, PoolEntry, TxPoolService } from '../../host/services/tx-pool.js';
import { AdmissionBatches, type Candidate } from './admission-batches.js';

interface Pending {
  readonly id: Uint8Array;
  readonly bytes: Uint8Array;
  readonly tx: Transaction;
  readonly fee: bigint;
  /** Proof nonces (transfers) or the key (registrations), as hex: what must not be pending twice. */
  readonly claims: string[];
  readonly sequence: number;
}

/** At most this many transactions wait; beyond it the lowest fee per byte goes. */
const MAX_PENDING = 10_000;

export class TxPool implements TxPoolService {
  private readonly txs = new Map<string, Pending>();
  /** Claimed nonce or key → the pending txid holding it. */
  private readonly claims = new Map<string, string>();
  /** Pending txids (hex) kept out of pending() while P2P relays them along their stem. */
  private readonly heldBack = new Set<string>();
  private sequence = 0;
  /** Counts re-checks after blocks: a re-check that a newer one overtook stops. */
  private recheckRound = 0;
  private readonly addListeners = new Set<(entry: PoolEntry) => void>();
  private readonly batches = new AdmissionBatches<Transaction, AddOptions>(
    (bytes) => this.decode(bytes),
    (batch) => this.chain.preverifyTransactions(batch),
    (candidate, options) => this.admit(candidate, options),
  );

  constructor(
    private readonly chain: ChainService,
    private readonly keccak256: (data: Uint8Array) => Uint8Array,
    private readonly network: NetworkName,
  ) {}

  /** Lets blocks find pending transactions, and prunes the pool after every new main-chain block. */
  connect(): void {
    this.chain.addTransactionSource((txid) => this.get(txid));
    this.chain.onBlock((_meta, outcome) => {
      if (outcome.status !== 'main') return;
      this.dropIncluded();
      void this.recheck();
      // Transactions of blocks a reorganisation left behind wait again, if they are still valid on the new branch.
      for (const txid of outcome.dropped ?? []) {
        const bytes = this.chain.storedTransaction(txid);
        try {
          if (bytes) this.add(bytes);
        } catch {
          // spent, expired or conflicting on the new branch: gone
        }
      }
    });
  }

  get size(): number {
    return this.txs.size;
  }

  add(bytes: Uint8Array, options: AddOptions = {}): Uint8Array {
    return this.admit(this.decode(bytes), options);
  }

  addBatched(bytes: Uint8Array, options: AddOptions = {}): Promise<Uint8Array> {
    return this.batches.add(bytes, options);
  }

  /** Refuses what is too large or does not decode; the txid is Keccak-256 of the header. */
  private decode(bytes: Uint8Array): Candidate<Transaction> {
    if (bytes.length > MAX_TX_BYTES)
      throw new TransactionError(
        TransactionErrorCode.TooLarge,
        `transaction of ${bytes.length} bytes is over the ${MAX_TX_BYTES}-byte limit`,
      );
    const tx = decodeOrRefuse(bytes);
    return { id: this.keccak256(encodeTransactionHeader(tx)), bytes, tx };
  }

  private admit({ id, bytes, tx }: Candidate<Transaction>, { local = false }: AddOptions): Uint8Array {
    const hex = toHex(id);
    if (this.txs.has(hex))
      throw new TransactionError(TransactionErrorCode.AlreadyPending, `transaction ${hex} is already in the pool`);
    if (this.chain.includingBlock(id))
      throw new TransactionError(TransactionErrorCode.AlreadyInBlock, `transaction ${hex} is already in a block`);
    let fee = 0n;
    if (tx.type === TxType.Normal || tx.type === TxType.SmartContract) {
      fee = transferFee(tx);
      // The simulator waives the minimum so that contract developers can try any fee.
      const needed = minimumFee(bytes.length);
      if (this.network !== 'simulator' && fee < needed)
        throw new TransactionError(
          TransactionErrorCode.FeeTooLow,
          `fee ${fee} is below the minimum of ${needed} for ${bytes.length} bytes (20 per started KiB)`,
        );
    }
    const { nonces } = this.chain.checkTransaction(id, bytes, tx);
    const claims = tx.type === TxType.Registration ? [`key:${toHex(tx.key)}`] : nonces.map((n) => `nonce:${toHex(n)}`);
    for (const claim of claims) {
      const holder = this.claims.get(claim);
      if (holder)
        throw claim.startsWith('key:')
          ? new TransactionError(
              TransactionErrorCode.RegistrationPending,
              `a registration of this key is already pending (${holder})`,
            )
          : new TransactionError(
              TransactionErrorCode.NonceReused,
              `it spends the same balance as pending transaction ${holder} (same proof nonce)`,
            );
    }
    for (const claim of claims) this.claims.set(claim, hex);
    this.txs.set(hex, { id, bytes, tx, fee, claims, sequence: this.sequence++ });
    if (this.txs.size > MAX_PENDING) this.remove(toHex(this.last().id));
    if (this.txs.has(hex))
      for (const listener of this.addListeners) listener({ txid: id, size: bytes.length, fee, local });
    return id;
  }

  onAdd(listener: (entry: PoolEntry) => void): () => void {
    this.addListeners.add(listener);
    return () => this.addListeners.delete(listener);
  }

  pending(): Uint8Array[] {
    return this.ordered()
      .filter((p) => !this.heldBack.has(toHex(p.id)))
      .map((p) => p.id);
  }

  holdBack(txid: Uint8Array): void {
    if (this.has(txid)) this.heldBack.add(toHex(txid));
  }

  stopHolding(txid: Uint8Array): void {
    this.heldBack.delete(toHex(txid));
  }

  get(txid: Uint8Array): Uint8Array | undefined {
    return this.txs.get(toHex(txid))?.bytes;
  }

  has(txid: Uint8Array): boolean {
    return this.txs.has(toHex(txid));
  }

  txidOf(bytes: Uint8Array): Uint8Array {
    return this.decode(bytes).id;
  }

  remove(txid: Uint8Array | string): void {
    const hex = typeof txid === 'string' ? txid : toHex(txid);
    const pending = this.txs.get(hex);
    if (!pending) return;
    this.txs.delete(hex);
    this.heldBack.delete(hex);
    for (const claim of pending.claims) this.claims.delete(claim);
  }

  /** After a new main-chain block: drops what it included. */
  private dropIncluded(): void {
    for (const [hex, pending] of this.txs) if (this.chain.includingBlock(pending.id)) this.remove(hex);
  }

  /**
   * After a new main-chain block: re-checks what waits against the new top and drops what has become invalid or
   * expired. Thousands of checks would hold the event loop for seconds, so they run in fair slices while admission
   * goes on (a template meanwhile leaves out what fails); a newer block's re-check takes over from an older one's.
   */
  private async recheck(): Promise<void> {
    const round = ++this.recheckRound;
    const slices = new FairSlices();
    for (const [hex, pending] of [...this.txs]) {
      if (slices.due()) {
        await slices.yield();
        if (round !== this.recheckRound) return;
      }
      if (this.txs.get(hex) !== pending) continue;
      try {
        this.chain.checkTransaction(pending.id, pending.bytes, pending.tx);
      } catch {
        this.remove(hex);
      }
    }
  }

  private ordered(): Pending[] {
    return [...this.txs.values()].sort(templateOrder);
  }

  /** The pending transaction a template would take last: one pass, where sorting all of them for it took n log n. */
  private last(): Pending {
    let last: Pending | undefined;
    for (const pending of this.txs.values()) if (!last || templateOrder(pending, last) > 0) last = pending;
    return last!;
  }
}

/** Registrations first, then by fee per byte (highest first), then the oldest first. */
function templateOrder(a: Pending, b: Pending): number {
  const rank = (p: Pending): number => (p.tx.type === TxType.Registration ? 0 : 1);
  const perByte = (p: Pending): number => Number(p.fee) / p.bytes.length;
  return rank(a) - rank(b) || perByte(b) - perByte(a) || a.sequence - b.sequence;
}

function decodeOrRefuse(bytes: Uint8Array): Transaction {
  try {
    return decodeTransaction(bytes);
  } catch (error) {
    throw new TransactionError(TransactionErrorCode.Malformed, `malformed transaction: ${(error as Error).message}`);
  }
}
