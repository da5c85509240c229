/**
 * The public statement a transfer proof is about (docs/protocol.md § Transfer proofs, docs/cryptography.md § Transfer ciphertexts), and the sender-side helpers
 * that build it: the deterministic blinding r, the ciphertexts C_i and D, the new balances CLn/CRn, and the
 * linkable tag base U.
 *
 * All points are 64-byte affine (x ‖ y). One statement is one asset payload of a transaction.
 */
import type { Core } from '../core.js';
import type { Generators } from '../curve.js';
import { bigintToBytes32BE, readUint256BE } from '../bigint-bytes.js';
import { UmbraError } from '../errors.js';
import { ProofErrorCode } from './proof-errors.js';
import { mod, N, neg } from './field.js';
import { MAX_RING_LOG2 } from './serialize.js';

export interface TransferStatement {
  /** The ring's public keys Y_0 … Y_{N−1}, N a power of two in [2, 128]. */
  ring: Uint8Array[];
  /** C_i: what the transfer adds to ring member i's balance L. */
  C: Uint8Array[];
  /** D = r·G: what it adds to every member's R. */
  D: Uint8Array;
  /** The members' balances after the transfer: CLn_i = L_i + C_i, CRn_i = R_i + D, at the referenced state. */
  CLn: Uint8Array[];
  CRn: Uint8Array[];
  /** The public amounts the sender pays besides the transfer (F = fee + burn must fit 64 bits). */
  fee: bigint;
  burn: bigint;
  /** State root of the referenced block (32 bytes). */
  roothash: Uint8Array;
  /** Asset id (32 bytes; zero for the native coin) and the running count of that asset in the transaction. */
  scid: Uint8Array;
  scidIndex: number;
  /** The transaction id: Keccak-256 of the transaction without its proofs. Seeds the transcript. */
  txid: Uint8Array;
}

export const MAX_AMOUNT = (1n << 64n) - 1n;

/** A statement, or the parts to build one, of the wrong shape. */
export class StatementError extends UmbraError<ProofErrorCode> {
  override readonly name = 'StatementError';
  constructor(message: string) {
    super(ProofErrorCode.BadStatement, message);
  }
}

/** log2 of a valid ring size, else a StatementError. */
export function ringLog2(size: number): number {
  for (let m = 1; m <= MAX_RING_LOG2; m++) if (size === 1 << m) return m;
  throw new StatementError(`ring size ${size} is not a power of two between 2 and 128`);
}

function isBytes(value: unknown, length: number): value is Uint8Array {
  return value instanceof Uint8Array && value.length === length;
}

/** Shape checks shared by the prover and the verifier (points are checked when used). Returns m. */
export function checkStatementShape(statement: TransferStatement): number {
  const { ring, C, CLn, CRn } = statement;
  if (!Array.isArray(ring)) throw new StatementError('the ring must be a list of points');
  const m = ringLog2(ring.length);
  for (const [name, list] of [
    ['C', C],
    ['CLn', CLn],
    ['CRn', CRn],
  ] as const) {
    if (!Array.isArray(list) || list.length !== ring.length)
      throw new StatementError(`${name} must have one entry per ring member (${ring.length})`);
  }
  for (const [name, list] of [
    ['ring', ring],
    ['C', C],
    ['CLn', CLn],
    ['CRn', CRn],
  ] as const) {
    list.forEach((p, i) => {
      if (!isBytes(p, 64)) throw new StatementError(`${name}[${i}] must be a 64-byte point`);
    });
  }
  if (!isBytes(statement.D, 64)) throw new StatementError('D must be a 64-byte point');
  for (const name of ['roothash', 'scid', 'txid'] as const) {
    if (!isBytes(statement[name], 32)) throw new StatementError(`${name} must be 32 bytes`);
  }
  for (const name of ['fee', 'burn'] as const) {
    const v = statement[name];
    if (typeof v !== 'bigint' || v < 0n || v > MAX_AMOUNT) throw new StatementError(`${name} must be a uint64`);
  }
  if (statement.fee + statement.burn > MAX_AMOUNT) throw new StatementError('fee + burn overflows 64 bits');
  if (!Number.isSafeInteger(statement.scidIndex) || statement.scidIndex < 0)
    throw new StatementError('scidIndex must be a non-negative integer');
  return m;
}

const encoder = new TextEncoder();

/** U = HashToPoint(domain ‖ roothash ‖ scid ‖ decimal(scid_index)): the base of the linkable tag u = sk·U. */
export function tagBase(
  core: Core,
  domain: string,
  roothash: Uint8Array,
  scid: Uint8Array,
  scidIndex: number,
): Uint8Array {
  const prefix = encoder.encode(domain);
  const index = encoder.encode(String(scidIndex));
  const data = new Uint8Array(prefix.length + 64 + index.length);
  data.set(prefix, 0);
  data.set(roothash, prefix.length);
  data.set(scid, prefix.length + 32);
  data.set(index, prefix.length + 64);
  return core.hashToPoint(data);
}

/** The double-spend key of a proof: Keccak-256 of the compressed tag u. */
export function tagNonce(core: Core, u: Uint8Array): Uint8Array {
  return core.keccak256(core.g1Compress(u));
}

/**
 * The sender's deterministic blinding (docs/cryptography.md § Transfer ciphertexts):
 *   r = Hs(compressed(sk · HashToPoint(domain ‖ roothash ‖ compressed(Y_0) ‖ … ‖ compressed(Y_{N−1})))).
 * The sender can recompute it later (history, payment proofs) without storing it.
 */
export function transferBlinding(
  core: Core,
  domain: string,
  sk: Uint8Array,
  roothash: Uint8Array,
  ring: readonly Uint8Array[],
): bigint {
  const prefix = encoder.encode(domain);
  const data = new Uint8Array(prefix.length + 32 + 33 * ring.length);
  data.set(prefix, 0);
  data.set(roothash, prefix.length);
  ring.forEach((Y, i) => data.set(core.g1Compress(Y), prefix.length + 32 + 33 * i));
  const point = core.g1MulSecret(core.hashToPoint(data), sk);
  const r = mod(readUint256BE(core.keccak256(core.g1Compress(point))));
  if (r === 0n) throw new StatementError('the blinding came out zero; rebuild with another ring order');
  return r;
}

export interface TransferParties {
  /** The ring keys (64-byte points) and their current encrypted balances (L_i, R_i) at the referenced state. */
  ring: Uint8Array[];
  balances: { L: Uint8Array; R: Uint8Array }[];
  senderIndex: number;
  receiverIndex: number;
  amount: bigint;
  fee: bigint;
  burn: bigint;
  /** The blinding r (see `transferBlinding`). */
  r: bigint;
}

/**
 * C_i, D, CLn and CRn for a transfer (docs/cryptography.md § Transfer ciphertexts):
 *   D = r·G; C_sender = −(amount + fee + burn)·G + r·Y; C_receiver = amount·G + r·Y; C_i = r·Y_i otherwise.
 */
export function buildTransferCiphertexts(
  core: Core,
  gens: Generators,
  parties: TransferParties,
): { C: Uint8Array[]; D: Uint8Array; CLn: Uint8Array[]; CRn: Uint8Array[] } {
  const { ring, balances, senderIndex, receiverIndex, amount, fee, burn, r } = parties;
  ringLog2(ring.length);
  if (balances.length !== ring.length) throw new StatementError('one balance per ring member is needed');
  if (senderIndex === receiverIndex || !(senderIndex in ring) || !(receiverIndex in ring))
    throw new StatementError('sender and receiver must be two different ring members');
  for (const [name, v] of [
    ['amount', amount],
    ['fee', fee],
    ['burn', burn],
  ] as const) {
    if (v < 0n || v > MAX_AMOUNT) throw new StatementError(`${name} must be a uint64`);
  }
  const debit = amount + fee + burn;
  if (debit > MAX_AMOUNT) throw new StatementError('amount + fee + burn overflows 64 bits');
  if (r <= 0n || r >= N) throw new StatementError('the blinding r must be in [1, n − 1]');
  const rBytes = bigintToBytes32BE(r);
  const D = core.g1MulSecret(gens.G, rBytes);
  // Amounts are private: constant-time multiplications.
  const C = ring.map((Y, i) => {
    const rY = core.g1MulSecret(Y, rBytes);
    if (i === senderIndex) return core.g1Add(rY, core.g1MulSecret(gens.G, bigintToBytes32BE(neg(debit))));
    if (i === receiverIndex) return core.g1Add(rY, core.g1MulSecret(gens.G, bigintToBytes32BE(amount)));
    return rY;
  });
  return {
    C,
    D,
    CLn: C.map((c, i) => core.g1Add(balances[i]!.L, c)),
    CRn: balances.map((b) => core.g1Add(b.R, D)),
  };
}
