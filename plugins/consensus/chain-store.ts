/**
 * Where the chain keeps blocks, their metadata, the main-chain (topological) index, transactions and what contract
 * calls did, in the node's key-value store. Every key starts with the byte 'c'. Writes go into a caller's WriteBatch
 * so that a block, its metadata, its index entries, its call outcomes and its state land in one atomic write.
 *
 *   c b <block id>            → serialised block
 *   c m <block id>            → BlockMeta
 *   c h <height 8 B> <id>     → (empty) every stored block at a height, main or side
 *   c t <topoheight 8 B>      → block id of the main chain at that topoheight
 *   c x <txid>                → serialised transaction
 *   c i <txid>                → id of the main-chain block that includes it
 *   c o <block id> <txid>     → what a contract transaction's call did in that block (main or side: a transaction
 *                               executed again in another block after a reorganisation has its own record there)
 *   c T                       → topoheight of the main-chain top (8 B)
 *   c F                       → block floor: the first height whose block bodies, transactions and call outcomes
 *                               are held (8 B; absent: 0). --prune-blocks drops those below it; metadata and the
 *                               indexes stay, so the chain of ids and headers' figures remain whole.
 */
import { bigintFromBytesBE, bigintToMinimalBytesBE } from '../../core-native/ts/bigint-bytes.js';
import { decodeBlock } from '../../protocol/block.js';
import { ByteReader, ByteWriter, DecodeError } from '../../protocol/bytes.js';
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import type { BlockMeta } from '../../host/services/chain.js';
import type { KeyValueStore, WriteBatch } from '../../host/storage/kv-store.js';

export type { BlockMeta };

const enc = new TextEncoder();
const tag = (letter: string): Uint8Array => enc.encode('c' + letter);
const u64 = (value: bigint): Uint8Array => new ByteWriter().u64be(value).finish();
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

const KEY = {
  block: (id: Uint8Array) => concat(tag('b'), id),
  meta: (id: Uint8Array) => concat(tag('m'), id),
  atHeight: (height: bigint, id?: Uint8Array) => concat(tag('h'), u64(height), id ?? new Uint8Array(0)),
  topo: (topoheight: bigint) => concat(tag('t'), u64(topoheight)),
  tx: (txid: Uint8Array) => concat(tag('x'), txid),
  txBlock: (txid: Uint8Array) => concat(tag('i'), txid),
  callOutcome: (blockId: Uint8Array, txid: Uint8Array) => concat(tag('o'), blockId, txid),
  top: () => tag('T'),
  blockFloor: () => tag('F'),
};

function encodeMeta(meta: BlockMeta): Uint8Array {
  return new ByteWriter()
    .bytes(meta.id, 32)
    .uvarint(meta.height)
    .u64be(meta.timestamp)
    .uvarint(meta.difficulty)
    .bytes(bigToBytes(meta.cumulativeWork))
    .uvarint(meta.stateVersion)
    .bytes(meta.stateRoot, 32)
    .uvarint(meta.size)
    .uvarint(meta.txCount)
    .uvarint(meta.reward)
    .finish();
}

/** Cumulative work can outgrow 64 bits in principle: store it as a length-prefixed big-endian integer. */
function bigToBytes(value: bigint): Uint8Array {
  const bytes = bigintToMinimalBytesBE(value);
  return concat(new Uint8Array([bytes.length]), bytes);
}

function decodeMeta(bytes: Uint8Array): BlockMeta {
  const r = new ByteReader(bytes, 'block metadata');
  const id = r.bytes(32, 'id');
  const height = r.uvarint('height');
  const timestamp = r.u64be('timestamp');
  const difficulty = r.uvarint('difficulty');
  const workBytes = r.bytes(r.byte('work length'), 'work');
  const cumulativeWork = bigintFromBytesBE(workBytes);
  const meta = {
    id,
    height,
    timestamp,
    difficulty,
    cumulativeWork,
    stateVersion: r.uvarint('state version'),
    stateRoot: r.bytes(32, 'state root'),
    size: Number(r.uvarint('size')),
    txCount: Number(r.uvarint('tx count')),
    reward: r.uvarint('reward'),
  };
  r.end();
  return meta;
}

/** A call outcome is stored as its JSON: a plain record whose numbers JSON carries back exactly. */
const encodeCallOutcome = (outcome: ContractCallOutcome): Uint8Array => enc.encode(JSON.stringify(outcome));

function decodeCallOutcome(bytes: Uint8Array): ContractCallOutcome {
  let outcome: ContractCallOutcome | undefined;
  try {
    outcome = JSON.parse(new TextDecoder().decode(bytes)) as ContractCallOutcome;
  } catch {
    // not JSON: refused below
  }
  if (
    !['committed', 'returned', 'failed'].includes(outcome?.status as string) ||
    typeof outcome?.gascompute !== 'number'
  )
    throw new DecodeError('contract call outcome: the stored record is damaged');
  return outcome;
}

export class ChainStore {
  constructor(readonly store: KeyValueStore) {}

  getBlockBytes(id: Uint8Array): Uint8Array | undefined {
    return this.store.getSync(KEY.block(id));
  }

  getMeta(id: Uint8Array): BlockMeta | undefined {
    const bytes = this.store.getSync(KEY.meta(id));
    return bytes && decodeMeta(bytes);
  }

  hasBlock(id: Uint8Array): boolean {
    return this.store.getSync(KEY.meta(id)) !== undefined;
  }

  /** Main-chain block id at a topoheight. */
  idAtTopo(topoheight: bigint): Uint8Array | undefined {
    return topoheight < 0n ? undefined : this.store.getSync(KEY.topo(topoheight));
  }

  /** Topoheight of the main-chain top, or -1 for an empty chain. */
  topTopoheight(): bigint {
    const bytes = this.store.getSync(KEY.top());
    return bytes ? new ByteReader(bytes, 'top').u64be('top') : -1n;
  }

  /** Ids of every stored block at a height (main and side). */
  async idsAtHeight(height: bigint): Promise<Uint8Array[]> {
    const prefix = KEY.atHeight(height);
    const ids: Uint8Array[] = [];
    for await (const [key] of this.store.entries({ prefix })) ids.push(key.slice(prefix.length));
    return ids;
  }

  getTxBytes(txid: Uint8Array): Uint8Array | undefined {
    return this.store.getSync(KEY.tx(txid));
  }

  /** The main-chain block that includes a transaction. */
  txBlock(txid: Uint8Array): Uint8Array | undefined {
    return this.store.getSync(KEY.txBlock(txid));
  }

  /** What a contract transaction's call did in the block `blockId`. */
  callOutcome(blockId: Uint8Array, txid: Uint8Array): ContractCallOutcome | undefined {
    const bytes = this.store.getSync(KEY.callOutcome(blockId, txid));
    return bytes && decodeCallOutcome(bytes);
  }

  putCallOutcome(batch: WriteBatch, blockId: Uint8Array, txid: Uint8Array, outcome: ContractCallOutcome): void {
    batch.put(KEY.callOutcome(blockId, txid), encodeCallOutcome(outcome));
  }

  putBlock(batch: WriteBatch, meta: BlockMeta, blockBytes: Uint8Array): void {
    batch
      .put(KEY.block(meta.id), blockBytes)
      .put(KEY.meta(meta.id), encodeMeta(meta))
      .put(KEY.atHeight(meta.height, meta.id), new Uint8Array(0));
  }

  putTx(batch: WriteBatch, txid: Uint8Array, txBytes: Uint8Array): void {
    batch.put(KEY.tx(txid), txBytes);
  }

  /** Points the main chain at `id` for `topoheight`, and indexes the block's transactions as included there. */
  setMain(batch: WriteBatch, topoheight: bigint, id: Uint8Array, txids: Uint8Array[]): void {
    batch.put(KEY.topo(topoheight), id);
    for (const txid of txids) batch.put(KEY.txBlock(txid), id);
  }

  /** Removes a block from the main chain at `topoheight` (during a reorganisation), un-indexing its transactions. */
  unsetMain(batch: WriteBatch, topoheight: bigint, txids: Uint8Array[]): void {
    batch.del(KEY.topo(topoheight));
    for (const txid of txids) batch.del(KEY.txBlock(txid));
  }

  /** The first height whose block bodies and transactions are held. */
  blockFloor(): bigint {
    const bytes = this.store.getSync(KEY.blockFloor());
    return bytes ? new ByteReader(bytes, 'block floor').u64be('block floor') : 0n;
  }

  /** Drops the bodies, transactions and call outcomes of every block stored at `height`, and raises the floor above it. */
  async dropBodiesAt(batch: WriteBatch, height: bigint): Promise<void> {
    for (const id of await this.idsAtHeight(height)) {
      const bytes = this.getBlockBytes(id);
      if (!bytes) continue;
      batch.del(KEY.block(id));
      for (const txid of decodeBlock(bytes).txHashes) batch.del(KEY.tx(txid)).del(KEY.callOutcome(id, txid));
    }
    batch.put(KEY.blockFloor(), u64(height + 1n));
  }

  setTop(batch: WriteBatch, topoheight: bigint): void {
    batch.put(KEY.top(), u64(topoheight));
  }
}
