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

/**
 * The item with all its bytes copied into one buffer. Its points and proof are often views of larger buffers (the
 * transaction, a store page), and posting a view to a worker copies the whole buffer under it.
 */
export function packItem({ statement, proof }: CompressedProofItem): CompressedProofItem {
  const { ring, C, D, L, R, roothash, scid, txid } = statement;
  const lists = [ring, C, L, R];
  let size = D.length + proof.length + roothash.length + scid.length + txid.length;
  for (const list of lists) for (const bytes of list) size += bytes.length;
  const buffer = new Uint8Array(size);
  let at = 0;
  const copy = (bytes: Uint8Array): Uint8Array => {
    buffer.set(bytes, at);
    at += bytes.length;
    return buffer.subarray(at - bytes.length, at);
  };
  return {
    statement: {
      ...statement,
      ring: ring.map(copy),
      C: C.map(copy),
      D: copy(D),
      L: L.map(copy),
      R: R.map(copy),
      roothash: copy(roothash),
      scid: copy(scid),
      txid: copy(txid),
    },
    proof: copy(proof),
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
