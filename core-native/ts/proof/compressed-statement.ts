/**
 * A transfer statement with its points as a transaction and the state carry them: compressed (33 bytes), with the
 * ring members' balances at the referenced state in place of CLn/CRn. Expanding it — decompressing about four points
 * per ring member and adding the ciphertexts to the balances — costs about a tenth of verifying the proof, so a node
 * lets its verification workers do it (verify-pool.ts) rather than the thread that receives the transactions.
 */
import type { Core } from '../core.js';
import type { Generators } from '../curve.js';
import { UmbraError } from '../errors.js';
import { concatPoints, pointAt } from './points.js';
import { ProofErrorCode } from './proof-errors.js';
import { verifyTransferProofs, type ProofItem } from './batch-verifier.js';
import type { TransferStatement } from './statement.js';
import type { TransferVerification } from './verifier.js';

/** A compressed point's size, and that of the 32-byte fields (roothash, scid, txid). */
const COMPRESSED = 33;
const FIELD = 32;

export interface CompressedStatement extends Omit<TransferStatement, 'ring' | 'C' | 'D' | 'CLn' | 'CRn'> {
  ring: Uint8Array[];
  C: Uint8Array[];
  D: Uint8Array;
  /** Each ring member's balance (L, R) at the referenced state. */
  L: Uint8Array[];
  R: Uint8Array[];
}

export interface CompressedProofItem {
  statement: CompressedStatement;
  proof: Uint8Array;
}

/** The ring members' balances (L, R), compressed. */
export interface RingBalances {
  L: Uint8Array[];
  R: Uint8Array[];
}

/**
 * A compressed item's verification; a valid one also gives the ring's balances after the transfer, compressed, in one
 * buffer (CLn_0 … CLn_{n−1} ‖ CRn_0 … CRn_{n−1}: `balanceAfter` reads a member's), and its ciphertexts as 64-byte
 * points in one buffer (C_0 … C_{n−1} ‖ D: `ciphertextAt`), which whoever applies the transfer to balances changed
 * since can add as they are. One buffer each, where arrays of views made some fifty objects for a ring of 16 to
 * post, receive and keep in the cache of verified transfers.
 */
export type CompressedVerification = TransferVerification & { balancesAfter?: Uint8Array; ciphertexts?: Uint8Array };

/** Ring member j's balance after the transfer, from a verification's `balancesAfter` for a ring of n. */
export function balanceAfter(after: Uint8Array, n: number, j: number): { L: Uint8Array; R: Uint8Array } {
  return {
    L: after.subarray(j * COMPRESSED, (j + 1) * COMPRESSED),
    R: after.subarray((n + j) * COMPRESSED, (n + j + 1) * COMPRESSED),
  };
}

/** C_j from a verification's `ciphertexts` for a ring of n, or D for j = n. */
export const ciphertextAt = (ciphertexts: Uint8Array, j: number): Uint8Array => pointAt(ciphertexts, j);

/**
 * A compressed item as it is posted to a worker: its bytes in one buffer — ring ‖ C ‖ L ‖ R (n points each) ‖ D ‖
 * roothash ‖ scid ‖ txid ‖ proof — and its numbers beside. Its points and proof are often views of larger buffers (the
 * transaction, a store page), and posting a view copies the whole buffer under it; and one buffer is one object to
 * make and to send, where views of it would be seventy for a ring of 16.
 */
export interface PackedProofItem {
  readonly bytes: Uint8Array;
  /** The ring's size n. */
  readonly ring: number;
  readonly fee: bigint;
  readonly burn: bigint;
  readonly scidIndex: number;
}

/** Packs an item (its points are 33-byte compressed points, as a transaction and the state carry them). */
export function packItem({ statement, proof }: CompressedProofItem): PackedProofItem {
  const { ring, C, D, L, R, roothash, scid, txid } = statement;
  const n = ring.length;
  if (C.length !== n || L.length !== n || R.length !== n)
    throw new Error(`a statement's ring, C, L and R differ in length (${n}, ${C.length}, ${L.length}, ${R.length})`);
  const bytes = new Uint8Array((4 * n + 1) * COMPRESSED + 3 * FIELD + proof.length);
  let at = 0;
  const put = (field: Uint8Array, size: number): void => {
    if (field.length !== size) throw new Error(`a statement field is ${field.length} bytes, not ${size}`);
    bytes.set(field, at);
    at += size;
  };
  for (const list of [ring, C, L, R]) for (const point of list) put(point, COMPRESSED);
  put(D, COMPRESSED);
  for (const field of [roothash, scid, txid]) put(field, FIELD);
  bytes.set(proof, at);
  return { bytes, ring: n, fee: statement.fee, burn: statement.burn, scidIndex: statement.scidIndex };
}

/** The item a packed one holds, its fields views of the packed bytes. */
export function unpackItem({ bytes, ring: n, fee, burn, scidIndex }: PackedProofItem): CompressedProofItem {
  let at = 0;
  const take = (size: number): Uint8Array => bytes.subarray(at, (at += size));
  const points = (): Uint8Array[] => Array.from({ length: n }, () => take(COMPRESSED));
  const [ring, C, L, R] = [points(), points(), points(), points()];
  const D = take(COMPRESSED);
  const [roothash, scid, txid] = [take(FIELD), take(FIELD), take(FIELD)];
  return {
    statement: { ring, C, D, L, R, fee, burn, roothash, scid, scidIndex, txid },
    proof: bytes.subarray(at),
  };
}

/** A point of a statement that does not decompress; `what` names it (e.g. `ring member 3`, `C[2]`). */
export class StatementPointError extends UmbraError<ProofErrorCode> {
  override readonly name = 'StatementPointError';

  constructor(
    readonly what: string,
    reason: string,
  ) {
    super(ProofErrorCode.NotACurvePoint, `${what} is not a curve point: ${reason}`);
  }
}

function decompress(core: Core, compressed: Uint8Array | undefined, what: string): Uint8Array {
  try {
    return core.g1Decompress(compressed ?? new Uint8Array(0));
  } catch (error) {
    throw new StatementPointError(what, (error as Error).message);
  }
}

/** The statement the proof is about: points decompressed, CLn = L + C and CRn = R + D; throws StatementPointError. */
export function expandStatement(core: Core, statement: CompressedStatement): TransferStatement {
  const { ring: keys, C: c, D: d, L, R, ...rest } = statement;
  const ring = keys.map((key, j) => decompress(core, key, `ring member ${j}`));
  const C = c.map((point, j) => decompress(core, point, `C[${j}]`));
  const D = decompress(core, d, 'D');
  const CLn = C.map((point, j) => core.g1Add(decompress(core, L[j], `balance L of ring member ${j}`), point));
  const CRn = ring.map((_, j) => core.g1Add(decompress(core, R[j], `balance R of ring member ${j}`), D));
  return { ...rest, ring, C, D, CLn, CRn };
}

/** The points compressed, laid end to end in one buffer. */
function compressAll(core: Core, points: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(points.length * COMPRESSED);
  points.forEach((point, j) => out.set(core.g1Compress(point), j * COMPRESSED));
  return out;
}

/**
 * Expands and batch-verifies the items; an item that does not expand is invalid with the reason. A valid one comes
 * with the ring's new balances, which whoever applies the transfer to unchanged balances can take as they are.
 */
export function verifyCompressedProofs(
  core: Core,
  gens: Generators,
  items: readonly CompressedProofItem[],
): CompressedVerification[] {
  const results = new Array<CompressedVerification>(items.length);
  const expanded: ProofItem[] = [];
  const positions: number[] = [];
  items.forEach((item, i) => {
    try {
      expanded.push({ statement: expandStatement(core, item.statement), proof: item.proof });
      positions.push(i);
    } catch (error) {
      if (!(error instanceof StatementPointError)) throw error;
      results[i] = { valid: false, reason: `bad statement: ${error.message}` };
    }
  });
  verifyTransferProofs(core, gens, expanded).forEach((result, k) => {
    const { statement } = expanded[k]!;
    results[positions[k]!] = result.valid
      ? {
          ...result,
          balancesAfter: compressAll(core, [...statement.CLn, ...statement.CRn]),
          ciphertexts: concatPoints([...statement.C, statement.D]),
        }
      : result;
  });
  return results;
}
