/**
 * A transfer statement with its points as a transaction and the state carry them: compressed (33 bytes), with the
 * ring members' balances at the referenced state in place of CLn/CRn. Expanding it — decompressing about four points
 * per ring member and adding the ciphertexts to the balances — costs about a tenth of verifying the proof, so a node
 * lets its verification workers do it (verify-pool.ts) rather than the thread that receives the transactions.
 */
import type { Core } from '../core.js';
import type { Generators } from '../curve.js';
import { UmbraError } from '../errors.js';
import { ProofErrorCode } from './proof-errors.js';
import { verifyTransferProofs, type ProofItem } from './batch-verifier.js';
import type { TransferStatement } from './statement.js';
import type { TransferVerification } from './verifier.js';

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

/** The ring members' balances (L, R) after a transfer, compressed: CLn and CRn. */
export interface RingBalances {
  L: Uint8Array[];
  R: Uint8Array[];
}

/** A transfer's ciphertexts as 64-byte points: C (one per ring member) and D. */
export interface Ciphertexts {
  C: Uint8Array[];
  D: Uint8Array;
}

/**
 * A compressed item's verification; a valid one also gives the ring's balances after the transfer, and its ciphertexts
 * decompressed, which whoever applies the transfer to balances changed since can add as they are.
 */
export type CompressedVerification = TransferVerification & { balancesAfter?: RingBalances; ciphertexts?: Ciphertexts };

/** A compressed point's size, and that of the 32-byte fields (roothash, scid, txid). */
const POINT = 33;
const FIELD = 32;

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
  const bytes = new Uint8Array((4 * n + 1) * POINT + 3 * FIELD + proof.length);
  let at = 0;
  const put = (field: Uint8Array, size: number): void => {
    if (field.length !== size) throw new Error(`a statement field is ${field.length} bytes, not ${size}`);
    bytes.set(field, at);
    at += size;
  };
  for (const list of [ring, C, L, R]) for (const point of list) put(point, POINT);
  put(D, POINT);
  for (const field of [roothash, scid, txid]) put(field, FIELD);
  bytes.set(proof, at);
  return { bytes, ring: n, fee: statement.fee, burn: statement.burn, scidIndex: statement.scidIndex };
}

/** The item a packed one holds, its fields views of the packed bytes. */
export function unpackItem({ bytes, ring: n, fee, burn, scidIndex }: PackedProofItem): CompressedProofItem {
  let at = 0;
  const take = (size: number): Uint8Array => bytes.subarray(at, (at += size));
  const points = (): Uint8Array[] => Array.from({ length: n }, () => take(POINT));
  const [ring, C, L, R] = [points(), points(), points(), points()];
  const D = take(POINT);
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

/** The byte strings, all of one size, copied into one buffer (one copy, not one each, when posted back from a worker). */
function inOneBuffer(items: readonly Uint8Array[]): Uint8Array[] {
  const size = items[0]?.length ?? 0;
  const buffer = new Uint8Array(items.length * size);
  return items.map((item, j) => {
    const view = buffer.subarray(j * size, (j + 1) * size);
    view.set(item);
    return view;
  });
}

const compressAll = (core: Core, points: readonly Uint8Array[]): Uint8Array[] =>
  inOneBuffer(points.map((point) => core.g1Compress(point)));

/** The statement's C and D, in one buffer. */
function ciphertextsOf({ C, D }: TransferStatement): Ciphertexts {
  const [d, ...c] = inOneBuffer([D, ...C]);
  return { C: c, D: d! };
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
          balancesAfter: { L: compressAll(core, statement.CLn), R: compressAll(core, statement.CRn) },
          ciphertexts: ciphertextsOf(statement),
        }
      : result;
  });
  return results;
}
