/**
 * Transfers inside a block (docs/protocol.md § Transactions):
 *  - the reference block is on this branch at the transaction's height, below the block, at most
 *    TX_VALIDITY_BLOCKS − 1 blocks back, and its state root is the one the proofs were made against;
 *  - the proofs verify against that state (transfer-checks.ts; results cached by the transaction's bytes);
 *  - no proof nonce repeats within the block;
 *  - nonce heights: no ring member of the sender's parity has sent since the referenced state. A sender's second
 *    transaction in the same block fails here, because the first one moved the nonce heights to this block's height;
 *  - then every ring member's balance of the asset takes (C_i, D), and the members of the sender's parity get this
 *    block's height as their nonce height.
 */
import type { Core } from '../../core-native/ts/core.js';
import type { Generators } from '../../core-native/ts/curve.js';
import { equalBytes, toHex } from '../../protocol/bytes.js';
import { TX_VALIDITY_BLOCKS } from '../../protocol/chain-params.js';
import type { NonceBalance } from '../../protocol/nonce-balance.js';
import {
  balanceAfter,
  ciphertextAt,
  verifyCompressedProofs,
  type CompressedProofItem,
  type RingBalances,
} from '../../core-native/ts/proof/compressed-statement.js';
import type { VerifyPool } from '../../core-native/ts/proof/verify-pool.js';
import {
  compressedProofItems,
  verifiedPayloads,
  verifyTransfer,
  type VerifiedPayload,
} from '../../protocol/transfer-checks.js';
import { TransactionError, TransactionErrorCode } from '../../protocol/transaction-errors.js';
// A compressed curve point, as a balance stores it, and a decompressed one (x ‖ y).
import { POINT_BYTES as COMPRESSED_BYTES, type TransferTx } from '../../protocol/transaction.js';
import { POINT as POINT_BYTES } from '../../core-native/ts/proof/points.js';
import type { ChainTimingObserver } from '../../host/services/chain.js';
import type { AccountsReader, AccountsWriter } from './accounts.js';
import type { BalanceMath } from './block-executor.js';
import type { ExecutionView } from './chain.js';
import { ReferencedBalances, type BalanceReader, type ReferencedReader } from './referenced-balances.js';

/** The part of the state applying a transfer reads and writes. */
export type BalanceWriter = Pick<AccountsWriter, 'getBalance' | 'getBalances' | 'putBalance'>;

/** A transfer's ring size (every payload's ring has the same size). */
const ringSize = (tx: TransferTx): number => tx.payloads[0]?.statement.ring.length ?? 0;

/**
 * A verified payload; verified on a worker, it also carries the ring's balances at the referenced state and after the
 * transfer, so that applying it to a member whose balance has not changed since takes the sum as it is, and its
 * ciphertexts decompressed, which a member whose balance has changed since takes without decompressing them again.
 */
export interface CheckedPayload extends VerifiedPayload {
  readonly ring?: {
    readonly before: RingBalances;
    /** As a worker's verification gives them (compressed-statement.ts: `balanceAfter`, `ciphertextAt`). */
    readonly after: Uint8Array;
    readonly ciphertexts: Uint8Array;
  };
}

/**
 * How many verified transfers are remembered, by the Keccak-256 of their bytes, so that the pool, templates and blocks
 * verify each one once: `verified` with the rings' balances and ciphertexts (the larger entries), `verdicts` only the
 * nonces and sender parities a check returns, for more transfers than the pool holds (10 000). Without that, a pool of
 * more transfers than `verified` holds would verify every one of them again after each block: it re-checks them in
 * admission order, the order in which the oldest entries are dropped.
 */
export interface VerdictCacheSizes {
  readonly verified: number;
  readonly verdicts: number;
}
const CACHE_SIZES: VerdictCacheSizes = { verified: 4096, verdicts: 65_536 };

export class TransferRules {
  private readonly verified = new Map<string, CheckedPayload[]>();
  private readonly verdicts = new Map<string, VerifiedPayload[]>();
  private readonly referenced = new ReferencedBalances();
  /**
   * The cache key of a transfer's bytes, by the bytes object: the pool hands the same object to its checks, the
   * templates and the block, which would otherwise hash the same kilobytes again each time.
   */
  private readonly bytesKeys = new WeakMap<Uint8Array, string>();

  constructor(
    private readonly core: Core,
    private readonly gens: Generators,
    private readonly math: BalanceMath,
    /** Told how long each transfer's verification took. */
    private readonly timings: ChainTimingObserver = {},
    private readonly cacheSizes = CACHE_SIZES,
  ) {}

  /**
   * Every rule a transfer must pass to go into a block of `height` executed on `state`; `nonces` are the proof
   * nonces already used in that block. Returns the verified payloads.
   */
  check(
    txid: Uint8Array,
    bytes: Uint8Array,
    tx: TransferTx,
    height: bigint,
    state: AccountsReader,
    view: ExecutionView,
    nonces: ReadonlySet<string>,
  ): CheckedPayload[] {
    if (tx.height >= height)
      throw new TransactionError(
        TransactionErrorCode.ReferenceTooNew,
        `it references height ${tx.height}, not below the block's height ${height}`,
      );
    if (height - tx.height >= TX_VALIDITY_BLOCKS)
      throw new TransactionError(
        TransactionErrorCode.Expired,
        `it references height ${tx.height}, too old for a block at height ${height} (valid for ${TX_VALIDITY_BLOCKS} blocks)`,
      );
    const reference = view.ancestor(tx.height);
    if (!reference || !equalBytes(reference.id, tx.blid))
      throw new TransactionError(
        TransactionErrorCode.UnknownReferenceBlock,
        `its reference block ${toHex(tx.blid)} is not the block at height ${tx.height} of this chain`,
      );
    const roothash = tx.payloads[0]!.statement.roothash;
    if (!equalBytes(roothash, reference.stateRoot))
      throw new TransactionError(
        TransactionErrorCode.WrongStateRoot,
        `its state root ${toHex(roothash)} is not that of its reference block`,
      );
    const referenced = this.referenced.reader(view, reference);
    const payloads = this.verify(txid, bytes, tx, referenced);
    payloads.forEach(({ nonce }, i) => {
      if (nonces.has(toHex(nonce)))
        throw new TransactionError(
          TransactionErrorCode.DoubleSpend,
          `payload ${i} spends with a proof nonce already used in this block (double spend)`,
        );
    });
    tx.payloads.forEach((payload, i) => {
      const parity = payloads[i]!.senderParity;
      // The members who may be the sender, read together.
      const members = payload.statement.ring.filter((_, j) => j % 2 === parity);
      const current = state.getBalances(payload.scid, members);
      members.forEach((key, j) => {
        const now = current[j]?.nonceHeight ?? 0n;
        const then = referenced.getBalance(payload.scid, key)?.nonceHeight ?? 0n;
        if (now > then)
          throw new TransactionError(
            TransactionErrorCode.StaleRing,
            `ring member ${toHex(key)} may have sent since the reference block (nonce height ${then} → ${now}); rebuild the transaction on a newer block`,
          );
      });
    });
    return payloads;
  }

  /**
   * Verifies the proofs of many transfers at once — batched, on the pool's worker threads when there is one — and
   * caches those that pass, so that `check` finds them verified. Transfers that cannot be read or fail are left for
   * `check` to reject with the reason.
   */
  async preverify(
    txs: readonly { id: Uint8Array; bytes: Uint8Array; tx: TransferTx }[],
    view: ExecutionView,
    pool: VerifyPool | undefined,
  ): Promise<void> {
    const work: { key: string; start: number; count: number; ring: number }[] = [];
    const items: CompressedProofItem[] = [];
    const queued = new Map<string, { id: Uint8Array; tx: TransferTx; referenced: ReferencedReader }>();
    /** One reader per referenced state, so that its rings are read ahead together. */
    const readers = new Map<bigint, ReferencedReader>();
    for (const { id, bytes, tx } of txs) {
      const key = this.bytesKey(bytes);
      const reference = view.ancestor(tx.height);
      if (this.verified.has(key) || this.verdicts.has(key) || queued.has(key)) continue;
      if (!reference || !equalBytes(reference.id, tx.blid)) continue;
      let referenced = readers.get(reference.stateVersion);
      if (!referenced) readers.set(reference.stateVersion, (referenced = this.referenced.reader(view, reference)));
      queued.set(key, { id, tx, referenced });
    }
    this.preloadRings(queued.values());
    for (const [key, { id, tx, referenced }] of queued) {
      try {
        const own = compressedProofItems(this.core, this.gens, tx, id, (asset, member) =>
          referenced.getBalance(asset, member),
        );
        work.push({ key, start: items.length, count: own.length, ring: ringSize(tx) });
        items.push(...own);
      } catch {
        // Unreadable: left for `check` to reject with the reason.
      }
    }
    if (items.length === 0) return;
    const started = performance.now();
    const results = pool
      ? await pool.verifyCompressed(this.gens.domain, items)
      : verifyCompressedProofs(this.core, this.gens, items);
    const secondsPerProof = (performance.now() - started) / 1000 / items.length;
    for (const { key, start, count, ring } of work) {
      const own = results.slice(start, start + count);
      this.timings.transferVerified?.(ring, secondsPerProof * count);
      if (!own.every((r) => r.valid)) continue;
      this.remember(
        key,
        verifiedPayloads(own).map((payload, k) => {
          const { L, R } = items[start + k]!.statement;
          const { balancesAfter: after, ciphertexts } = own[k]!;
          return after && ciphertexts ? { ...payload, ring: { before: { L, R }, after, ciphertexts } } : payload;
        }),
      );
    }
  }

  /**
   * Reads the ring members' balances of many transfers at their referenced states ahead, a state and an asset at a time
   * (the first reads of a referenced state are most of what admitting a batch reads).
   */
  private preloadRings(transfers: Iterable<{ tx: TransferTx; referenced: ReferencedReader }>): void {
    const rings = new Map<ReferencedReader, Map<string, { asset: Uint8Array; keys: Uint8Array[] }>>();
    for (const { tx, referenced } of transfers) {
      const byAsset = rings.get(referenced) ?? new Map<string, { asset: Uint8Array; keys: Uint8Array[] }>();
      rings.set(referenced, byAsset);
      for (const { scid, statement } of tx.payloads) {
        const asset = toHex(scid);
        if (!byAsset.has(asset)) byAsset.set(asset, { asset: scid, keys: [] });
        byAsset.get(asset)!.keys.push(...statement.ring);
      }
    }
    for (const [referenced, byAsset] of rings)
      for (const { asset, keys } of byAsset.values()) referenced.preload(asset, keys);
  }

  /** Applies a checked transfer's ciphertexts to every ring member. */
  apply(tx: TransferTx, payloads: readonly CheckedPayload[], height: bigint, state: BalanceWriter): void {
    tx.payloads.forEach((payload, i) => {
      const { senderParity: parity, ring } = payloads[i]!;
      const members = payload.statement.ring;
      const current = state.getBalances(payload.scid, members);
      const before = members.map((key, j): NonceBalance => current[j] ?? this.math.registration(key));
      // A member whose balance is still the one the proof was checked against takes the sums the worker computed;
      // one changed since the referenced state has C and D added to its balance here.
      const changed = members.flatMap((_, j) =>
        ring && equalBytes(before[j]!.L, ring.before.L[j]!) && equalBytes(before[j]!.R, ring.before.R[j]!) ? [] : [j],
      );
      const sums = this.addCiphertexts(payload, ring?.ciphertexts, before, changed);
      members.forEach((key, j) => {
        const { L, R } = sums.L[j] ? { L: sums.L[j]!, R: sums.R[j]! } : balanceAfter(ring!.after, members.length, j);
        state.putBalance(payload.scid, key, { nonceHeight: j % 2 === parity ? height : before[j]!.nonceHeight, L, R });
      });
    });
  }

  /**
   * The balances of the ring members `changed` (indices) plus the payload's ciphertexts — C[j] onto L, D onto R —
   * in one call of the curve (each a decompression, an addition and a compression, one field inversion for all);
   * by member index, nothing at the others.
   */
  private addCiphertexts(
    payload: TransferTx['payloads'][number],
    decompressed: Uint8Array | undefined,
    before: readonly NonceBalance[],
    changed: readonly number[],
  ): RingBalances {
    const count = changed.length;
    const sums: RingBalances = { L: [], R: [] };
    if (count === 0) return sums;
    const stored = new Uint8Array(2 * count * COMPRESSED_BYTES);
    const added = new Uint8Array(2 * count * POINT_BYTES);
    // A worker that verified the transfer sent its ciphertexts decompressed; else they are decompressed here.
    const { ring, C, D: compressedD } = payload.statement;
    const D = decompressed ? ciphertextAt(decompressed, ring.length) : this.core.g1Decompress(compressedD);
    changed.forEach((j, k) => {
      stored.set(before[j]!.L, k * COMPRESSED_BYTES);
      stored.set(before[j]!.R, (count + k) * COMPRESSED_BYTES);
      added.set(decompressed ? ciphertextAt(decompressed, j) : this.core.g1Decompress(C[j]!), k * POINT_BYTES);
      added.set(D, (count + k) * POINT_BYTES);
    });
    const out = this.core.g1AddToCompressed(stored, added);
    const at = (k: number) => out.subarray(k * COMPRESSED_BYTES, (k + 1) * COMPRESSED_BYTES);
    changed.forEach((j, k) => {
      sums.L[j] = at(k);
      sums.R[j] = at(count + k);
    });
    return sums;
  }

  private bytesKey(bytes: Uint8Array): string {
    let key = this.bytesKeys.get(bytes);
    if (key === undefined) this.bytesKeys.set(bytes, (key = toHex(this.core.keccak256(bytes))));
    return key;
  }

  private verify(txid: Uint8Array, bytes: Uint8Array, tx: TransferTx, referenced: BalanceReader): CheckedPayload[] {
    const key = this.bytesKey(bytes);
    const cached = this.verified.get(key) ?? this.verdicts.get(key);
    if (cached) return cached;
    const started = performance.now();
    const payloads = verifyTransfer(this.core, this.gens, tx, txid, (asset, member) =>
      referenced.getBalance(asset, member),
    );
    this.timings.transferVerified?.(ringSize(tx), (performance.now() - started) / 1000);
    this.remember(key, payloads);
    return payloads;
  }

  private remember(key: string, payloads: CheckedPayload[]): void {
    const dropOldest = (map: Map<string, unknown>, size: number): void => {
      if (map.size > size) map.delete(map.keys().next().value!);
    };
    this.verified.set(key, payloads);
    dropOldest(this.verified, this.cacheSizes.verified);
    this.verdicts.set(
      key,
      payloads.map(({ nonce, senderParity }) => ({ nonce, senderParity })),
    );
    dropOldest(this.verdicts, this.cacheSizes.verdicts);
  }
}
