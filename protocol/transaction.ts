/**
 * Umbra's transaction byte format (docs/protocol.md § Transactions):
 *
 *   uvarint version (1) ‖ uvarint source network (0) ‖ uvarint destination network (0) ‖ uvarint type
 *   PREMINE:       uvarint value ‖ 33 B key
 *   REGISTRATION:  33 B key ‖ 32 B C ‖ 32 B S                         (Schnorr signature, reference §1.9)
 *   COINBASE:      33 B key                                            (the block's integrator)
 *   NORMAL, SC:    uvarint height ‖ 32 B reference block id ‖ uvarint payload count ‖ payload headers
 *   SC:            uvarint length ‖ encoded sc_rpc arguments
 *   NORMAL, SC:    one proof per payload, 1013 + 328·log2(N) bytes
 *
 *   payload header: uvarint burn ‖ 32 B scid ‖ 1 B rpc type (0) ‖ 145 B encrypted rpc payload ‖ statement
 *   statement:      1 B log2(N) ‖ uvarint fees ‖ 33 B D ‖ N × 33 B ring keys ‖ N × 33 B C ‖ 32 B state root
 *
 * Unlike the reference, ring members are full 33-byte keys (no trie pointers) and trailing bytes are an error for
 * every type. The txid is Keccak-256 of everything before the proofs.
 */
import { ByteReader, ByteWriter } from './bytes.js';

export enum TxType {
  Premine = 0,
  Registration = 1,
  Coinbase = 2,
  Normal = 3,
  SmartContract = 5,
}

export const TX_VERSION = 1;
export const POINT_BYTES = 33;
export const HASH_BYTES = 32;
export const RPC_PAYLOAD_BYTES = 145;
export const MAX_RING_LOG2 = 7;
export const MAX_PAYLOADS = 32;
/** Largest accepted transaction (docs/protocol.md § Consensus rules: 300 KiB). */
export const MAX_TX_BYTES = 300 * 1024;

export const proofSize = (ringLog2: number): number => 1013 + 328 * ringLog2;

export interface Statement {
  /** log2 of the ring size N (1..7). */
  ringLog2: number;
  fees: bigint;
  D: Uint8Array;
  /** N compressed public keys. */
  ring: Uint8Array[];
  /** N compressed ciphertext points C_i. */
  C: Uint8Array[];
  /** State root the proof was made against. */
  roothash: Uint8Array;
}

export interface AssetPayload {
  /** Asset id: 32 zero bytes for the native coin. */
  scid: Uint8Array;
  burn: bigint;
  rpcType: number;
  /** The per-receiver encrypted payload (reference §1.10, §2.3). */
  rpcPayload: Uint8Array;
  statement: Statement;
  proof: Uint8Array;
}

interface TxCommon {
  version: number;
  sourceNetwork: number;
  destNetwork: number;
}

export interface PremineTx extends TxCommon {
  type: TxType.Premine;
  value: bigint;
  key: Uint8Array;
}

export interface RegistrationTx extends TxCommon {
  type: TxType.Registration;
  key: Uint8Array;
  c: Uint8Array;
  s: Uint8Array;
}

export interface CoinbaseTx extends TxCommon {
  type: TxType.Coinbase;
  key: Uint8Array;
}

export interface TransferTx extends TxCommon {
  type: TxType.Normal | TxType.SmartContract;
  /** Height of the reference block. */
  height: bigint;
  /** Id of the reference block. */
  blid: Uint8Array;
  payloads: AssetPayload[];
  /** Encoded sc_rpc arguments (SmartContract only). */
  scData: Uint8Array;
}

export type Transaction = PremineTx | RegistrationTx | CoinbaseTx | TransferTx;

const common = { version: TX_VERSION, sourceNetwork: 0, destNetwork: 0 } as const;

export const coinbaseTx = (key: Uint8Array): CoinbaseTx => ({ ...common, type: TxType.Coinbase, key });
export const premineTx = (key: Uint8Array, value: bigint): PremineTx => ({
  ...common,
  type: TxType.Premine,
  key,
  value,
});

function writeHeader(writer: ByteWriter, tx: Transaction): void {
  writer.uvarint(tx.version).uvarint(tx.sourceNetwork).uvarint(tx.destNetwork).uvarint(tx.type);
  switch (tx.type) {
    case TxType.Premine:
      writer.uvarint(tx.value).bytes(tx.key, POINT_BYTES);
      return;
    case TxType.Registration:
      writer.bytes(tx.key, POINT_BYTES).bytes(tx.c, HASH_BYTES).bytes(tx.s, HASH_BYTES);
      return;
    case TxType.Coinbase:
      writer.bytes(tx.key, POINT_BYTES);
      return;
    case TxType.Normal:
    case TxType.SmartContract:
      writer.uvarint(tx.height).bytes(tx.blid, HASH_BYTES).uvarint(tx.payloads.length);
      for (const payload of tx.payloads) {
        const { statement } = payload;
        const n = 1 << statement.ringLog2;
        if (statement.ring.length !== n || statement.C.length !== n)
          throw new RangeError(`statement ring and C must both have ${n} entries`);
        writer
          .uvarint(payload.burn)
          .bytes(payload.scid, HASH_BYTES)
          .byte(payload.rpcType)
          .bytes(payload.rpcPayload, RPC_PAYLOAD_BYTES);
        writer.byte(statement.ringLog2).uvarint(statement.fees).bytes(statement.D, POINT_BYTES);
        for (const key of statement.ring) writer.bytes(key, POINT_BYTES);
        for (const c of statement.C) writer.bytes(c, POINT_BYTES);
        writer.bytes(statement.roothash, HASH_BYTES);
      }
      if (tx.type === TxType.SmartContract) writer.uvarint(tx.scData.length).bytes(tx.scData);
      return;
  }
}

/** The bytes the txid covers: everything but the proofs. */
export function encodeTransactionHeader(tx: Transaction): Uint8Array {
  const writer = new ByteWriter();
  writeHeader(writer, tx);
  return writer.finish();
}

export function encodeTransaction(tx: Transaction): Uint8Array {
  const writer = new ByteWriter();
  writeHeader(writer, tx);
  if (tx.type === TxType.Normal || tx.type === TxType.SmartContract) {
    for (const payload of tx.payloads) writer.bytes(payload.proof, proofSize(payload.statement.ringLog2));
  }
  return writer.finish();
}

function readStatement(reader: ByteReader, index: number): Statement {
  const ringLog2 = reader.byte(`payload ${index} ring size`);
  if (ringLog2 < 1 || ringLog2 > MAX_RING_LOG2)
    reader.fail(`payload ${index} ring size 2^${ringLog2} is not a power of two between 2 and 128`);
  const fees = reader.uvarint(`payload ${index} fees`);
  const D = reader.view(POINT_BYTES, `payload ${index} D`);
  const n = 1 << ringLog2;
  const ring = reader.views(n, POINT_BYTES, `payload ${index} ring keys`);
  const C = reader.views(n, POINT_BYTES, `payload ${index} C`);
  const roothash = reader.view(HASH_BYTES, `payload ${index} state root`);
  return { ringLog2, fees, D, ring, C, roothash };
}

/**
 * Strict structural decoding: every length, count and version checked, trailing bytes rejected. Points are checked
 * to be on the curve separately (see the transaction checks), since that needs the crypto core. The byte fields are
 * views of `bytes`, not copies (a transfer has dozens): whoever holds a transaction keeps its bytes as they are.
 */
export function decodeTransaction(bytes: Uint8Array): Transaction {
  const reader = new ByteReader(bytes, 'transaction');
  if (bytes.length > MAX_TX_BYTES) reader.fail(`${bytes.length} bytes exceeds the limit of ${MAX_TX_BYTES}`);
  const version = reader.smallUvarint('version', 0xff);
  if (version !== TX_VERSION) reader.fail(`unsupported version ${version}`);
  const sourceNetwork = reader.smallUvarint('source network', 0);
  const destNetwork = reader.smallUvarint('destination network', 0);
  const type = reader.smallUvarint('type', 0xff);
  const head = { version, sourceNetwork, destNetwork };
  let tx: Transaction;
  switch (type) {
    case TxType.Premine:
      tx = { ...head, type, value: reader.uvarint('value'), key: reader.view(POINT_BYTES, 'key') };
      break;
    case TxType.Registration:
      tx = {
        ...head,
        type,
        key: reader.view(POINT_BYTES, 'key'),
        c: reader.view(HASH_BYTES, 'signature C'),
        s: reader.view(HASH_BYTES, 'signature S'),
      };
      break;
    case TxType.Coinbase:
      tx = { ...head, type, key: reader.view(POINT_BYTES, 'key') };
      break;
    case TxType.Normal:
    case TxType.SmartContract: {
      const height = reader.uvarint('height');
      const blid = reader.view(HASH_BYTES, 'reference block id');
      const count = reader.smallUvarint('payload count', MAX_PAYLOADS);
      if (count === 0) reader.fail('a transfer needs at least one payload');
      const headers = Array.from({ length: count }, (_, i) => {
        const burn = reader.uvarint(`payload ${i} burn`);
        const scid = reader.view(HASH_BYTES, `payload ${i} scid`);
        const rpcType = reader.byte(`payload ${i} rpc type`);
        if (rpcType !== 0) reader.fail(`payload ${i} has unknown rpc type ${rpcType}`);
        const rpcPayload = reader.view(RPC_PAYLOAD_BYTES, `payload ${i} rpc payload`);
        return { burn, scid, rpcType, rpcPayload, statement: readStatement(reader, i) };
      });
      const scData =
        type === TxType.SmartContract
          ? reader.view(reader.smallUvarint('sc data length', MAX_TX_BYTES), 'sc data')
          : new Uint8Array(0);
      const payloads = headers.map((h, i) => ({
        ...h,
        proof: reader.view(proofSize(h.statement.ringLog2), `payload ${i} proof`),
      }));
      tx = { ...head, type, height, blid, payloads, scData };
      break;
    }
    default:
      return reader.fail(`unknown transaction type ${type}`);
  }
  reader.end();
  return tx;
}
