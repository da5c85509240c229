/**
 * Transfer-proof fixtures shared by the proof tests: the reference vectors (spec/vectors/proof_vectors.json, copied
 * to test/vectors/) as statements, and freshly built random transfers for round trips.
 */
import type { Core } from '../../core-native/ts/core.js';
import type { TransferStatement } from '../../core-native/ts/proof/statement.js';
import { loadVectors } from './vectors.js';

export interface ProofVector {
  ring_size: number;
  secret_keys_hex: string[];
  public_keys: string[];
  sender_index: number;
  receiver_index: number;
  prev_balance_left: string[];
  prev_balance_right: string[];
  sender_balance_before: number;
  amount: number;
  fees: number;
  burn: number;
  r_hex: string;
  C: string[];
  D: string;
  CLn: string[];
  CRn: string[];
  roothash: string;
  scid: string;
  scid_index: number;
  txid_used_for_fiat_shamir: string;
  u: string;
  proof_nonce_keccak_u: string;
  proof_hex: string;
}

export const PROOF_VECTORS: ProofVector[] = loadVectors('proof_vectors.json');

export const unhex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** The statement of a reference vector, points decompressed by `core`. */
export function vectorStatement(core: Core, v: ProofVector): TransferStatement {
  const point = (s: string): Uint8Array => core.g1Decompress(unhex(s));
  return {
    ring: v.public_keys.map(point),
    C: v.C.map(point),
    D: point(v.D),
    CLn: v.CLn.map(point),
    CRn: v.CRn.map(point),
    fee: BigInt(v.fees),
    burn: BigInt(v.burn),
    roothash: unhex(v.roothash),
    scid: unhex(v.scid),
    scidIndex: v.scid_index,
    txid: unhex(v.txid_used_for_fiat_shamir),
  };
}
