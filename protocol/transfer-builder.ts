/**
 * Builds a transfer transaction (docs/cryptography.md § Transfer ciphertexts): per payload the deterministic blinding r, the
 * ciphertexts C_i and D, the receiver's encrypted payload, then the txid over everything but the proofs, then one
 * proof per payload bound to that txid. The wallet chooses rings, amounts and fees; this module only does the
 * cryptography, against the balances of the state the transaction references. Payloads of the same asset are
 * applied in order, as the node will check them (transfer-checks.ts).
 */
import { bigintToBytes32BE } from '../core-native/ts/bigint-bytes.js';
import type { Core } from '../core-native/ts/core.js';
import type { Generators } from '../core-native/ts/curve.js';
import { sealPayload } from '../core-native/ts/payload-cipher.js';
import type { ScalarSource } from '../core-native/ts/proof/field.js';
import { proveTransfer, type TransferWitness } from '../core-native/ts/proof/prover.js';
import {
  buildTransferCiphertexts,
  transferBlinding,
  type TransferStatement,
} from '../core-native/ts/proof/statement.js';
import { payloadKey, sharedSecret } from '../core-native/ts/shared-secret.js';
import { equalBytes, toHex } from './bytes.js';
import { NATIVE_SCID, type BalanceLookup } from './transfer-checks.js';
import {
  encodeTransaction,
  encodeTransactionHeader,
  TX_VERSION,
  type TxType,
  type AssetPayload,
  type TransferTx,
} from './transaction.js';

export interface PayloadSpec {
  /** Asset id (32 zero bytes: the native coin). */
  scid: Uint8Array;
  /** Compressed ring keys in their final order; the sender and the receiver at indices of opposite parity. */
  ring: Uint8Array[];
  senderIndex: number;
  receiverIndex: number;
  amount: bigint;
  burn: bigint;
  /** Fee (native payload only). */
  fee: bigint;
  /** Encoded RPC arguments for the receiver (at most 144 bytes; empty for none). */
  args: Uint8Array;
}

export interface TransferSpec {
  type: TxType.Normal | TxType.SmartContract;
  secretKey: Uint8Array;
  /** The block the transaction is built against: its height, id and state root. */
  reference: { height: bigint; blid: Uint8Array; roothash: Uint8Array };
  payloads: PayloadSpec[];
  /** Encoded sc_rpc arguments (contract transactions). */
  scData?: Uint8Array;
  /** Ring members' balances in the referenced state. */
  balanceAt: BalanceLookup;
  /** The sender's decrypted balance of an asset in the referenced state. */
  senderBalance(asset: Uint8Array): bigint;
  /** Randomness of the proofs (tests and benchmarks only). */
  random?: ScalarSource;
}

export interface BuiltTransfer {
  tx: TransferTx;
  txid: Uint8Array;
  bytes: Uint8Array;
  /** The blinding r of each payload (the wallet derives payment proofs from it). */
  blindings: bigint[];
}

/** What a payload's proof is made from: the statement (bound to the txid) and the sender's witness. */
export interface ProofTask {
  statement: TransferStatement;
  witness: TransferWitness;
}

/** A transfer whose payloads wait for their proofs (empty until sealTransfer), and what each proof is made from. */
export interface PreparedTransfer {
  tx: TransferTx;
  txid: Uint8Array;
  proofs: ProofTask[];
  blindings: bigint[];
}

/**
 * Everything of a transfer but its proofs, which take most of the time and are independent of one another: a caller
 * may make them elsewhere (worker threads) and seal the transfer with them.
 */
export function prepareTransfer(core: Core, gens: Generators, spec: TransferSpec): PreparedTransfer {
  const updated = new Map<string, Map<string, { L: Uint8Array; R: Uint8Array }>>();
  const spent = new Map<string, bigint>();
  const prepared = spec.payloads.map((payload) => {
    const asset = toHex(payload.scid);
    const native = equalBytes(payload.scid, NATIVE_SCID);
    if (!native && payload.fee !== 0n) throw new RangeError('only the native-coin payload pays a fee');
    const seen = updated.get(asset) ?? new Map<string, { L: Uint8Array; R: Uint8Array }>();
    updated.set(asset, seen);
    const ring = payload.ring.map((key) => core.g1Decompress(key));
    const balances = payload.ring.map((key, i) => {
      const known = seen.get(toHex(key));
      if (known) return known;
      if (!spec.balanceAt(NATIVE_SCID, key)) throw new RangeError(`ring member ${toHex(key)} is not registered`);
      // A key the asset has never touched holds (Y, G), an encryption of zero.
      const stored = spec.balanceAt(payload.scid, key);
      return stored ? { L: core.g1Decompress(stored.L), R: core.g1Decompress(stored.R) } : { L: ring[i]!, R: gens.G };
    });
    const r = transferBlinding(core, gens.domain, spec.secretKey, spec.reference.roothash, ring);
    const parts = buildTransferCiphertexts(core, gens, {
      ring,
      balances,
      senderIndex: payload.senderIndex,
      receiverIndex: payload.receiverIndex,
      amount: payload.amount,
      fee: payload.fee,
      burn: payload.burn,
      r,
    });
    payload.ring.forEach((key, i) => seen.set(toHex(key), { L: parts.CLn[i]!, R: parts.CRn[i]! }));
    const before = spec.senderBalance(payload.scid) - (spent.get(asset) ?? 0n);
    spent.set(asset, (spent.get(asset) ?? 0n) + payload.amount + payload.fee + payload.burn);
    const receiver = ring[payload.receiverIndex]!;
    const rpcPayload = sealPayload(
      core,
      payloadKey(core, sharedSecret(core, bigintToBytes32BE(r), receiver), receiver),
      payload.senderIndex,
      payload.args,
    );
    const header: AssetPayload = {
      scid: payload.scid,
      burn: payload.burn,
      rpcType: 0,
      rpcPayload,
      proof: new Uint8Array(0),
      statement: {
        ringLog2: Math.log2(payload.ring.length),
        fees: payload.fee,
        D: core.g1Compress(parts.D),
        ring: payload.ring,
        C: parts.C.map((c) => core.g1Compress(c)),
        roothash: spec.reference.roothash,
      },
    };
    return { payload, header, ring, parts, r, before };
  });
  const tx: TransferTx = {
    version: TX_VERSION,
    sourceNetwork: 0,
    destNetwork: 0,
    type: spec.type,
    height: spec.reference.height,
    blid: spec.reference.blid,
    payloads: prepared.map((p) => p.header),
    scData: spec.scData ?? new Uint8Array(0),
  };
  const txid = core.keccak256(encodeTransactionHeader(tx));
  const scidCounts = new Map<string, number>();
  const proofs = prepared.map(({ payload, ring, parts, r, before }): ProofTask => {
    const asset = toHex(payload.scid);
    const scidIndex = scidCounts.get(asset) ?? 0;
    scidCounts.set(asset, scidIndex + 1);
    return {
      statement: {
        ring,
        C: parts.C,
        D: parts.D,
        CLn: parts.CLn,
        CRn: parts.CRn,
        fee: payload.fee,
        burn: payload.burn,
        roothash: spec.reference.roothash,
        scid: payload.scid,
        scidIndex,
        txid,
      },
      witness: {
        sk: spec.secretKey,
        r,
        amount: payload.amount,
        balance: before,
        senderIndex: payload.senderIndex,
        receiverIndex: payload.receiverIndex,
      },
    };
  });
  return { tx, txid, proofs, blindings: prepared.map((p) => p.r) };
}

/** The transfer with the proofs of its payloads (made from `prepared.proofs`, in order). */
export function sealTransfer(prepared: PreparedTransfer, proofs: readonly Uint8Array[]): BuiltTransfer {
  if (proofs.length !== prepared.proofs.length)
    throw new RangeError(`${prepared.proofs.length} payloads need as many proofs, got ${proofs.length}`);
  const tx: TransferTx = {
    ...prepared.tx,
    payloads: prepared.tx.payloads.map((payload, i) => ({ ...payload, proof: proofs[i]! })),
  };
  return { tx, txid: prepared.txid, bytes: encodeTransaction(tx), blindings: prepared.blindings };
}

export function buildTransfer(core: Core, gens: Generators, spec: TransferSpec): BuiltTransfer {
  const prepared = prepareTransfer(core, gens, spec);
  const options = spec.random ? { random: spec.random } : {};
  return sealTransfer(
    prepared,
    prepared.proofs.map(({ statement, witness }) => proveTransfer(core, gens, statement, witness, options)),
  );
}
