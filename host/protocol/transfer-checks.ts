/**
 * What a node checks of a transfer on its own, given the state the transaction references (docs/protocol.md § Transactions,
 * "per tx"): the shape (one native payload, one state root, distinct ring members, fees only on the native payload),
 * every point on the curve, every ring member registered in the referenced state, and every proof — with the payloads
 * applied in order on a scratch copy, so that a second payload of an asset sees the balances the first one left.
 * The mempool and block execution both call this; the context rules (validity window, nonce heights, conflicts
 * inside a block) are theirs.
 */
import type { Core } from '../../core-native/ts/core.js';
import type { Generators } from '../../core-native/ts/curve.js';
import type { TransferStatement } from '../../core-native/ts/proof/statement.js';
import { verifyTransferProofs, type ProofItem } from '../../core-native/ts/proof/batch-verifier.js';
import type { TransferVerification } from '../../core-native/ts/proof/verifier.js';
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

function decompress(core: Core, compressed: Uint8Array, what: string): Uint8Array {
  try {
    return core.g1Decompress(compressed);
  } catch (error) {
    throw new TransactionError(
      TransactionErrorCode.NotACurvePoint,
      `${what} is not a curve point: ${(error as Error).message}`,
    );
  }
}

/**
 * The proof statements of a transfer against the referenced state, one per payload (payloads applied in order on a
 * scratch copy). Checks the shape, the points and that every ring member is registered; throws a TransactionError.
 */
export function transferProofItems(
  core: Core,
  gens: Generators,
  tx: TransferTx,
  txid: Uint8Array,
  balanceAt: BalanceLookup,
): ProofItem[] {
  checkTransferShape(tx);
  /** Balances as updated by the payloads so far: asset hex → key hex → (L, R) as 64-byte points. */
  const scratch = new Map<string, Map<string, { L: Uint8Array; R: Uint8Array }>>();
  const scidCounts = new Map<string, number>();
  return tx.payloads.map((payload, i) => {
    const { statement, scid } = payload;
    const asset = toHex(scid);
    const native = equalBytes(scid, NATIVE_SCID);
    const updated = scratch.get(asset) ?? new Map<string, { L: Uint8Array; R: Uint8Array }>();
    scratch.set(asset, updated);
    const ring = statement.ring.map((key, j) => decompress(core, key, `payload ${i} ring member ${j}`));
    const balances = statement.ring.map((key, j) => {
      const seen = updated.get(toHex(key));
      if (seen) return seen;
      const registered = balanceAt(NATIVE_SCID, key);
      if (!registered)
        throw new TransactionError(
          TransactionErrorCode.UnregisteredRingMember,
          `payload ${i} ring member ${toHex(key)} is not registered in the referenced state`,
        );
      const stored = native ? registered : balanceAt(scid, key);
      // A key the asset has never touched holds an encryption of zero with ρ = 1: (Y, G).
      if (!stored) return { L: ring[j]!, R: gens.G };
      return {
        L: decompress(core, stored.L, `stored balance L of ${toHex(key)}`),
        R: decompress(core, stored.R, `stored balance R of ${toHex(key)}`),
      };
    });
    const C = statement.C.map((c, j) => decompress(core, c, `payload ${i} C[${j}]`));
    const D = decompress(core, statement.D, `payload ${i} D`);
    const CLn = C.map((c, j) => core.g1Add(balances[j]!.L, c));
    const CRn = balances.map((b) => core.g1Add(b.R, D));
    const scidIndex = scidCounts.get(asset) ?? 0;
    scidCounts.set(asset, scidIndex + 1);
    statement.ring.forEach((key, j) => updated.set(toHex(key), { L: CLn[j]!, R: CRn[j]! }));
    const proofStatement: TransferStatement = {
      ring,
      C,
      D,
      CLn,
      CRn,
      fee: statement.fees,
      burn: payload.burn,
      roothash: statement.roothash,
      scid,
      scidIndex,
      txid,
    };
    return { statement: proofStatement, proof: payload.proof };
  });
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
