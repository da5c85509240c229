/**
 * Every P2P message: its kind byte on the wire, the largest body it may have, and the shape of its body.
 * Requests carry a `request` number that their response echoes. docs/protocol.md ("P2P") describes each message.
 */
import { MAX_BLOCK_BYTES, MAX_BLOCK_TXS } from '../../../protocol/block.js';
import { MAX_TX_BYTES } from '../../../protocol/transaction.js';
import { MAX_RANGE_BITS } from '../../../host/services/snapshots.js';
import { bigUint, bytes, list, record, text, uint, type Shape } from './shape.js';

/**
 * 2 added `stemTx`, 3 the fast-sync messages (`getHeaders` … `chunk`): an older node would take a new kind for garbage
 * and ban the sender, so they do not talk.
 */
export const PROTOCOL_VERSION = 3;

/** Control messages are small; a larger frame of a control kind is an attack, refused from its header. */
const CONTROL_FRAME_LIMIT = 64 * 1024;
/** Big enough for the largest block together with its transactions. */
const DATA_FRAME_LIMIT = 2 * MAX_BLOCK_BYTES + 1024 * 1024;
/** One transaction with room for the CBOR around it. */
const STEM_FRAME_LIMIT = MAX_TX_BYTES + 1024;
/** Bytes of bodies (blocks, transactions) an answer may carry: the frame limit less room for the CBOR around them. */
export const DATA_BODY_BUDGET = DATA_FRAME_LIMIT - 64 * 1024;

export const MAX_PEER_ADDRESSES = 250;
export const MAX_LOCATOR_IDS = 64;
export const MAX_CHAIN_IDS = 500;
export const MAX_BLOCKS_PER_REQUEST = 128;
export const MAX_TX_IDS = 512;
/** A state-trie name (the meta trie's keys: a balance trie's 33 bytes, a contract's), and the deepest range path. */
export const MAX_TRIE_NAME_BYTES = 64;
export const MAX_CHUNK_PATH = MAX_RANGE_BITS + 1;
/** Leaves in one chunk: the server's limit (CHUNK_LIMITS) with room to spare. */
export const MAX_CHUNK_LEAVES = 2048;
/** A leaf's key and value, and an encoded trie node (a leaf's is its key and value with 34 bytes around them). */
const MAX_LEAF_KEY_BYTES = 64 * 1024;
const MAX_LEAF_VALUE_BYTES = 4 * 1024 * 1024;
const MAX_NODE_BYTES = MAX_LEAF_KEY_BYTES + MAX_LEAF_VALUE_BYTES + 64;

const id32 = bytes({ exactly: 32 });
const ids = (max: number) => list(id32, max);
/** A block with the bodies of its transactions, by position in its txid list (in `blocks`, and on the blocks topic). */
export const blockBody = record<{ block: Uint8Array; txs: Uint8Array[] }>({
  block: bytes({ max: MAX_BLOCK_BYTES }),
  txs: list(bytes({ max: MAX_TX_BYTES }), MAX_BLOCK_TXS),
});

const message = <T extends Record<string, unknown>>(kind: number, limit: number, shape: Shape<T>) => ({
  kind,
  limit,
  shape,
});

export const MESSAGES = {
  /** The first message each side sends: who it is and what chain it has. */
  hello: message(
    1,
    CONTROL_FRAME_LIMIT,
    record({
      version: uint,
      network: text(32),
      genesis: id32,
      height: uint,
      work: bigUint,
      top: id32,
      nodeId: bytes({ exactly: 16 }),
      port: uint,
    }),
  ),
  /** Sent before closing a connection on purpose, with the reason. */
  goodbye: message(2, CONTROL_FRAME_LIMIT, record({ reason: text(512) })),
  ping: message(3, CONTROL_FRAME_LIMIT, record({ nonce: uint })),
  pong: message(4, CONTROL_FRAME_LIMIT, record({ nonce: uint })),
  getPeers: message(5, CONTROL_FRAME_LIMIT, record<Record<string, never>>({})),
  peers: message(6, CONTROL_FRAME_LIMIT, record({ addresses: list(text(64), MAX_PEER_ADDRESSES) })),
  /** A block the sender has accepted; `height` and `work` are also its new top when the block is on its main chain. */
  newBlock: message(7, CONTROL_FRAME_LIMIT, record({ id: id32, height: uint, work: bigUint })),
  getBlocks: message(8, CONTROL_FRAME_LIMIT, record({ request: uint, ids: ids(MAX_BLOCKS_PER_REQUEST) })),
  /** The requested blocks the sender has, in the requested order; it may stop early to keep the frame small. */
  blocks: message(9, DATA_FRAME_LIMIT, record({ request: uint, blocks: list(blockBody, MAX_BLOCKS_PER_REQUEST) })),
  /** Asks for main-chain block ids after the first locator id that is on the receiver's main chain. */
  getChain: message(10, CONTROL_FRAME_LIMIT, record({ request: uint, locator: ids(MAX_LOCATOR_IDS) })),
  /** Main-chain ids from height `start` upwards. */
  chain: message(11, CONTROL_FRAME_LIMIT, record({ request: uint, start: uint, ids: ids(MAX_CHAIN_IDS) })),
  newTxs: message(12, CONTROL_FRAME_LIMIT, record({ ids: ids(MAX_TX_IDS) })),
  getTxs: message(13, CONTROL_FRAME_LIMIT, record({ request: uint, ids: ids(MAX_TX_IDS) })),
  txs: message(14, DATA_FRAME_LIMIT, record({ request: uint, txs: list(bytes({ max: MAX_TX_BYTES }), MAX_TX_IDS) })),
  /** A transaction in its Dandelion++ stem phase: sent to one peer, whole, and not to be announced by it yet. */
  stemTx: message(16, STEM_FRAME_LIMIT, record({ tx: bytes({ max: MAX_TX_BYTES }) })),
  /** Main-chain blocks by id, as serialised, without their transactions (fast sync checks the header chain). */
  getHeaders: message(17, CONTROL_FRAME_LIMIT, record({ request: uint, ids: ids(MAX_BLOCKS_PER_REQUEST) })),
  /** The requested blocks the sender has, in order; it may stop early to keep the frame small. */
  headers: message(
    18,
    DATA_FRAME_LIMIT,
    record({ request: uint, blocks: list(bytes({ max: MAX_BLOCK_BYTES }), MAX_BLOCKS_PER_REQUEST) }),
  ),
  /**
   * A chunk of a state trie (docs/protocol.md § State snapshots): of the state after the main-chain block at
   * `topoheight` whose state root is `stateRoot`, the trie named `trie` (empty: the meta trie), the key hashes
   * starting with the first `bits` bits of `prefix`; at most `limit` leaves.
   */
  getChunk: message(
    19,
    CONTROL_FRAME_LIMIT,
    record({
      request: uint,
      topoheight: uint,
      stateRoot: id32,
      trie: bytes({ max: MAX_TRIE_NAME_BYTES }),
      bits: uint,
      prefix: bytes({ max: Math.ceil(MAX_RANGE_BITS / 8) }),
      /** Most leaves wanted: a range with more is answered with a split (the server may split smaller ranges too). */
      limit: uint,
    }),
  ),
  /** The chunk's proof (`split` 1: the range is too big, its halves are to be asked for), or why it is refused. */
  chunk: message(
    20,
    DATA_FRAME_LIMIT,
    record({
      request: uint,
      refused: text(512),
      path: list(bytes({ max: MAX_NODE_BYTES }), MAX_CHUNK_PATH),
      leaves: list(
        record({ key: bytes({ max: MAX_LEAF_KEY_BYTES }), value: bytes({ max: MAX_LEAF_VALUE_BYTES }) }),
        MAX_CHUNK_LEAVES,
      ),
      split: uint,
    }),
  ),
};

export type MessageName = keyof typeof MESSAGES;
export type Body<N extends MessageName> = ReturnType<(typeof MESSAGES)[N]['shape']>;
export type Message = { [N in MessageName]: { type: N; body: Body<N> } }[MessageName];

/** Requests and the response each one expects. */
export const RESPONSES = {
  getBlocks: 'blocks',
  getChain: 'chain',
  getTxs: 'txs',
  getHeaders: 'headers',
  getChunk: 'chunk',
} as const;
export type RequestName = keyof typeof RESPONSES;

const byKind = new Map<number, MessageName>(Object.entries(MESSAGES).map(([name, m]) => [m.kind, name as MessageName]));

export const messageNameOf = (kind: number): MessageName | undefined => byKind.get(kind);
export const frameLimitOf = (kind: number): number | undefined => {
  const name = byKind.get(kind);
  return name && MESSAGES[name].limit;
};
