/**
 * What a node checks of a transfer on its own, given the state the transaction references (docs/protocol.md § Transactions,
 * "per tx"): the shape (one native payload, one state root, distinct ring members, fees only on the native payload),
 * every point on the curve, every ring member registered in the referenced state, and every proof — with the payloads
 * applied in order on a scratch copy, so that a second payload of an asset sees the balances the first one left.
 * The mempool and block execution both call this; the context rules (validity window, nonce heights, conflicts
 * inside a block) are theirs.
 */
import type { Core } from '../core-native/ts/core.js';
import type { Generators } from '../core-native/ts/curve.js';
import {
  expandStatement,
  StatementPointError,
  type CompressedProofItem,
} from '../core-native/ts/proof/compressed-statement.js';
import { verifyTransferProofs, type ProofItem } from '../core-native/ts/proof/batch-verifier.js';
import type { TransferVerification } from '../core-native/ts/proof/verifier.js';
import { equalBytes, toHex } from './bytes.js';
import type { NonceBalance } from './nonce-balance.js';
import { TransactionError, TransactionErrorCode } from './transaction-errors.js';
import { TxType, type TransferTx } from './transaction.js';

/** The native coin's asset id. */
export const NATIVE_SCID = new Uint8Array(32);

/** A ring member's stored balance of an asset in the referenced state (undefined: no entry). */
export type BalanceLookup = (asset: Uint8Array, key: Uint8Array) => NonceBalance | undefined;

/** What a verified payload reveals: the double-spend nonce and the parity of the sender's ring index. */
export interface VerifiedPayload {
  readonly nonce: Uint8Array;
  readonly senderParity: 0 | 1;
}

/** Smallest fee a pool accepts for a transaction of `size` bytes (docs/protocol.md § Transactions): 20 per started KiB. */
export const minimumFee = (size: number): bigint => BigInt(Math.ceil(size / 1024) * 20);

/** The fee a transfer pays: the native payloads' fee fields. */
export const transferFee = (tx: TransferTx): bigint =>
  tx.payloads.reduce((sum, p) => (equalBytes(p.scid, NATIVE_SCID) ? sum + p.statement.fees : sum), 0n);

/** Structural rules that need no state. */
export function checkTransferShape(tx: TransferTx): void {
  if (tx.type !== TxType.Normal && tx.type !== TxType.SmartContract)
    throw new TransactionError(TransactionErrorCode.NotATransfer, `a ${TxType[tx.type]} transaction is not a transfer`);
  if (!tx.payloads.some((p) => equalBytes(p.scid, NATIVE_SCID)))
    throw new TransactionError(
      TransactionErrorCode.NoNativePayload,
      'a transfer needs a payload of the native coin (it carries the fee)',
    );
  const roothash = tx.payloads[0]!.statement.roothash;
  tx.payloads.forEach((payload, i) => {
    const { statement } = payload;
    if (!equalBytes(statement.roothash, roothash))
      throw new TransactionError(
        TransactionErrorCode.MixedStateRoots,
        `payload ${i} references another state root than payload 0`,
      );
    if (statement.fees > 0n && !equalBytes(payload.scid, NATIVE_SCID))
      throw new TransactionError(TransactionErrorCode.FeeOnAsset, `payload ${i} is not the native coin but pays a fee`);
    const members = new Set<string>();
    for (const key of statement.ring) {
      const hex = toHex(key);
      if (members.has(hex))
        throw new TransactionError(
          TransactionErrorCode.DuplicateRingMember,
          `payload ${i} names ring member ${hex} twice`,
        );
      members.add(hex);
    }
  });
}

/** The item's statement expanded; a point that does not decompress is a TransactionError naming payload `i`. */
function expanded(core: Core, item: CompressedProofItem, i: number): ProofItem {
  try {
    return { statement: expandStatement(core, item.statement), proof: item.proof };
  } catch (error) {
    if (!(error instanceof StatementPointError)) throw error;
    throw new TransactionError(TransactionErrorCode.NotACurvePoint, `payload ${i} ${error.message}`);
  }
}

/**
 * The proof statements of a transfer against the referenced state, one per payload, with their points still
 * compressed (compressed-statement.ts expands them). Checks the shape and that every ring member is registered;
 * throws a TransactionError. A payload of an asset an earlier payload also moved sees the balances that one left.
 */
export function compressedProofItems(
  core: Core,
  gens: Generators,
  tx: TransferTx,
  txid: Uint8Array,
  balanceAt: BalanceLookup,
): CompressedProofItem[] {
  checkTransferShape(tx);
  /** Balances as updated by the payloads so far: asset hex → key hex → (L, R) compressed. */
  const scratch = new Map<string, Map<string, { L: Uint8Array; R: Uint8Array }>>();
  const scidCounts = new Map<string, number>();
  const encryptedZeroR = core.g1Compress(gens.G);
  return tx.payloads.map((payload, i) => {
    const { statement, scid } = payload;
    const asset = toHex(scid);
    const native = equalBytes(scid, NATIVE_SCID);
    const updated = scratch.get(asset);
    const balances = statement.ring.map((key) => {
      const seen = updated?.get(toHex(key));
      if (seen) return seen;
      const registered = balanceAt(NATIVE_SCID, key);
      if (!registered)
        throw new TransactionError(
          TransactionErrorCode.UnregisteredRingMember,
          `payload ${i} ring member ${toHex(key)} is not registered in the referenced state`,
        );
      // A key the asset has never touched holds an encryption of zero with ρ = 1: (Y, G).
      return (native ? registered : balanceAt(scid, key)) ?? { L: key, R: encryptedZeroR };
    });
    const scidIndex = scidCounts.get(asset) ?? 0;
    scidCounts.set(asset, scidIndex + 1);
    const item: CompressedProofItem = {
      statement: {
        ring: statement.ring,
        C: statement.C,
        D: statement.D,
        L: balances.map((b) => b.L),
        R: balances.map((b) => b.R),
        fee: statement.fees,
        burn: payload.burn,
        roothash: statement.roothash,
        scid,
        scidIndex,
        txid,
      },
      proof: payload.proof,
    };
    if (tx.payloads.some((other, k) => k > i && equalBytes(other.scid, scid))) {
      // A later payload of this asset sees the ring's balances as this one leaves them: CLn, CRn.
      const { CLn, CRn } = expanded(core, item, i).statement;
      const after = new Map(updated);
      statement.ring.forEach((key, j) =>
        after.set(toHex(key), { L: core.g1Compress(CLn[j]!), R: core.g1Compress(CRn[j]!) }),
      );
      scratch.set(asset, after);
    }
    return item;
  });
}

/**
 * The proof statements of a transfer against the referenced state, one per payload, expanded on this thread. Checks
 * the shape, the points and that every ring member is registered; throws a TransactionError.
 */
export function transferProofItems(
  core: Core,
  gens: Generators,
  tx: TransferTx,
  txid: Uint8Array,
  balanceAt: BalanceLookup,
): ProofItem[] {
  return compressedProofItems(core, gens, tx, txid, balanceAt).map((item, i) => expanded(core, item, i));
}

/** The payload results of verified proofs, or a TransactionError naming the first payload whose proof fails. */
export function verifiedPayloads(results: readonly TransferVerification[]): VerifiedPayload[] {
  return results.map((result, i) => {
    if (!result.valid)
      throw new TransactionError(TransactionErrorCode.InvalidProof, `payload ${i} proof is invalid: ${result.reason}`);
    return { nonce: result.nonce, senderParity: result.senderParity };
  });
}

/** Checks the shape, the ring and every proof against the referenced state (on this thread). */
export function verifyTransfer(
  core: Core,
  gens: Generators,
  tx: TransferTx,
  txid: Uint8Array,
  balanceAt: BalanceLookup,
): VerifiedPayload[] {
  return verifiedPayloads(verifyTransferProofs(core, gens, transferProofItems(core, gens, tx, txid, balanceAt)));
}
