/**
 * Transfer-proof fixtures shared by the proof tests: the reference vectors (test/vectors/proof_vectors.json, copied
 * to test/vectors/) as statements, and freshly built random transfers for round trips.
 */
import type { Core } from '../../core-native/ts/core.js';
import type { Generators } from '../../core-native/ts/curve.js';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { mod, seededScalars, type ScalarSource } from '../../core-native/ts/proof/field.js';
import type { ProofItem } from '../../core-native/ts/proof/batch-verifier.js';
import type { CompressedProofItem } from '../../core-native/ts/proof/compressed-statement.js';
import { proveTransfer, type TransferWitness } from '../../core-native/ts/proof/prover.js';
import { buildTransferCiphertexts, type TransferStatement } from '../../core-native/ts/proof/statement.js';
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

export interface TransferFixture {
  statement: TransferStatement;
  witness: TransferWitness;
}

export interface FixtureOptions {
  n: number;
  senderIndex: number;
  receiverIndex: number;
  balance: bigint;
  amount: bigint;
  fee?: bigint;
  burn?: bigint;
  /** Deterministic randomness for keys, balances and r. */
  random: ScalarSource;
  scidIndex?: number;
}

/**
 * A consistent random transfer: N fresh keys, every member holding an encrypted balance (the sender's encrypts
 * `balance`), ciphertexts built for the amount, fee and burn.
 */
export function makeTransfer(core: Core, gens: Generators, o: FixtureOptions): TransferFixture {
  const fee = o.fee ?? 0n;
  const burn = o.burn ?? 0n;
  const sks = Array.from({ length: o.n }, () => o.random());
  const G = core.g1FixedBase(gens.G);
  const ring = sks.map((sk) => G.mul(bigintToBytes32BE(sk)));
  const balances = ring.map((Y, i) => {
    const rho = o.random();
    const value = i === o.senderIndex ? o.balance : o.random() % 1000n;
    return {
      L: core.g1Add(G.mul(bigintToBytes32BE(value)), core.g1Mul(Y, bigintToBytes32BE(rho))),
      R: G.mul(bigintToBytes32BE(rho)),
    };
  });
  const r = o.random();
  const { C, D, CLn, CRn } = buildTransferCiphertexts(core, gens, {
    ring,
    balances,
    senderIndex: o.senderIndex,
    receiverIndex: o.receiverIndex,
    amount: o.amount,
    fee,
    burn,
    r,
  });
  const txid = bigintToBytes32BE(mod(o.random()));
  const roothash = bigintToBytes32BE(mod(o.random()));
  return {
    statement: {
      ring,
      C,
      D,
      CLn,
      CRn,
      fee,
      burn,
      roothash,
      scid: new Uint8Array(32),
      scidIndex: o.scidIndex ?? 0,
      txid,
    },
    witness: {
      sk: bigintToBytes32BE(sks[o.senderIndex]!),
      r,
      amount: o.amount,
      balance: o.balance,
      senderIndex: o.senderIndex,
      receiverIndex: o.receiverIndex,
    },
  };
}

/**
 * Proven transfers, one per ring size given, from a seed (sender and receiver positions and amounts vary with the
 * index). Either prover will do: both write the same bytes from the same randomness.
 */
export function makeProofBatch(core: Core, gens: Generators, rings: readonly number[], seed: string): ProofItem[] {
  const random = seededScalars(core.keccak256, seed);
  return rings.map((n, i) => {
    const fx = makeTransfer(core, gens, {
      n,
      senderIndex: i % n,
      receiverIndex: (i + 1) % n,
      balance: 1_000_000n + BigInt(i),
      amount: 1000n * BigInt(i),
      fee: 10n,
      random,
    });
    return { statement: fx.statement, proof: proveTransfer(core, gens, fx.statement, fx.witness, { random }) };
  });
}

/** An item as a transaction and the state hold it: points compressed, the balances before the transfer (CLn − C, CRn − D). */
export function compressedItem(core: Core, { statement, proof }: ProofItem): CompressedProofItem {
  const { ring, C, D, CLn, CRn, ...rest } = statement;
  const compress = (point: Uint8Array): Uint8Array => core.g1Compress(point);
  return {
    statement: {
      ...rest,
      ring: ring.map(compress),
      C: C.map(compress),
      D: compress(D),
      L: CLn.map((point, j) => compress(core.g1Sub(point, C[j]!))),
      R: CRn.map((point) => compress(core.g1Sub(point, D))),
    },
    proof,
  };
}
