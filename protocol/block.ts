/**
 * Umbra's block format (docs/protocol.md § Blocks, with the state root committed in the header):
 *
 *   uvarint major version ‖ uvarint minor version ‖ 8 B timestamp (ms, big-endian) ‖ uvarint height
 *   ‖ miner transaction (COINBASE; PREMINE in genesis) ‖ 32 B state root after this block
 *   ‖ uvarint tip count (0 for genesis, else 1) ‖ tips × 32 B
 *   ‖ uvarint miniblock count (≤ 10) ‖ miniblocks × 48 B ‖ uvarint tx count ‖ txids × 32 B
 *
 * Block id = SHA3-256 of the serialised block. The transactions travel and are stored separately, by txid.
 */
import { ByteReader, ByteWriter } from './bytes.js';
import {
  decodeMiniblock,
  encodeMiniblock,
  MINIBLOCK_BYTES,
  MINIBLOCKS_PER_BLOCK,
  type Miniblock,
} from './miniblock.js';
import { HASH_BYTES, POINT_BYTES, TX_VERSION, TxType, type CoinbaseTx, type PremineTx } from './transaction.js';

/** Largest number of transactions a block may list (10 MiB of 300 KiB transactions, rounded up generously). */
export const MAX_BLOCK_TXS = 10_000;
/** Largest total size of a block's transactions (docs/protocol.md § Consensus rules). */
export const MAX_BLOCK_TX_BYTES = 10 * 1024 * 1024 + 256 * 1024;
export const MAX_BLOCK_BYTES = 10 * 1024 * 1024 + 256 * 1024;

export interface Block {
  majorVersion: number;
  minorVersion: number;
  /** Milliseconds since the epoch. */
  timestamp: bigint;
  height: bigint;
  minerTx: CoinbaseTx | PremineTx;
  stateRoot: Uint8Array;
  tips: Uint8Array[];
  miniblocks: Miniblock[];
  txHashes: Uint8Array[];
}

/**
 * The timestamp of a block made at `nowMs` on a parent stamped `parentMs`: now, or just after the parent when the
 * clock lags behind it. Block templates carry it, and a trial run of a contract call sees it.
 */
export const nextBlockTimestamp = (nowMs: bigint, parentMs: bigint): bigint =>
  nowMs > parentMs ? nowMs : parentMs + 1n;

function writeMinerTx(writer: ByteWriter, tx: CoinbaseTx | PremineTx): void {
  writer.uvarint(tx.version).uvarint(tx.sourceNetwork).uvarint(tx.destNetwork).uvarint(tx.type);
  if (tx.type === TxType.Premine) writer.uvarint(tx.value);
  writer.bytes(tx.key, POINT_BYTES);
}

function readMinerTx(reader: ByteReader): CoinbaseTx | PremineTx {
  const version = reader.smallUvarint('miner tx version', 0xff);
  if (version !== TX_VERSION) reader.fail(`miner tx has unsupported version ${version}`);
  const sourceNetwork = reader.smallUvarint('miner tx source network', 0);
  const destNetwork = reader.smallUvarint('miner tx destination network', 0);
  const type = reader.smallUvarint('miner tx type', 0xff);
  const head = { version, sourceNetwork, destNetwork };
  if (type === TxType.Premine)
    return { ...head, type, value: reader.uvarint('premine value'), key: reader.bytes(POINT_BYTES, 'miner key') };
  if (type === TxType.Coinbase) return { ...head, type, key: reader.bytes(POINT_BYTES, 'miner key') };
  return reader.fail(`miner tx must be COINBASE or PREMINE, got type ${type}`);
}

/** Serialises a block; `miniblockLimit` cuts the miniblock list (the final miniblock commits to the first nine). */
export function encodeBlock(block: Block, miniblockLimit = block.miniblocks.length): Uint8Array {
  const writer = new ByteWriter();
  writer.uvarint(block.majorVersion).uvarint(block.minorVersion).u64be(block.timestamp).uvarint(block.height);
  writeMinerTx(writer, block.minerTx);
  writer.bytes(block.stateRoot, HASH_BYTES);
  writer.uvarint(block.tips.length);
  for (const tip of block.tips) writer.bytes(tip, HASH_BYTES);
  const miniblocks = block.miniblocks.slice(0, miniblockLimit);
  writer.uvarint(miniblocks.length);
  for (const mb of miniblocks) writer.bytes(encodeMiniblock(mb));
  writer.uvarint(block.txHashes.length);
  for (const txid of block.txHashes) writer.bytes(txid, HASH_BYTES);
  return writer.finish();
}

export function decodeBlock(bytes: Uint8Array): Block {
  const reader = new ByteReader(bytes, 'block');
  if (bytes.length > MAX_BLOCK_BYTES) reader.fail(`${bytes.length} bytes exceeds the limit of ${MAX_BLOCK_BYTES}`);
  const majorVersion = reader.smallUvarint('major version', 0xff);
  const minorVersion = reader.smallUvarint('minor version', 0xff);
  const timestamp = reader.u64be('timestamp');
  const height = reader.uvarint('height');
  const minerTx = readMinerTx(reader);
  const stateRoot = reader.bytes(HASH_BYTES, 'state root');
  const tipCount = reader.smallUvarint('tip count', 1);
  const tips = Array.from({ length: tipCount }, (_, i) => reader.bytes(HASH_BYTES, `tip ${i}`));
  const miniblockCount = reader.smallUvarint('miniblock count', MINIBLOCKS_PER_BLOCK);
  const miniblocks = Array.from({ length: miniblockCount }, (_, i) => {
    try {
      return decodeMiniblock(reader.bytes(MINIBLOCK_BYTES, `miniblock ${i}`));
    } catch (error) {
      return reader.fail(`miniblock ${i}: ${(error as Error).message}`);
    }
  });
  const txCount = reader.smallUvarint('tx count', MAX_BLOCK_TXS);
  const txHashes = Array.from({ length: txCount }, (_, i) => reader.bytes(HASH_BYTES, `txid ${i}`));
  reader.end();
  return { majorVersion, minorVersion, timestamp, height, minerTx, stateRoot, tips, miniblocks, txHashes };
}
