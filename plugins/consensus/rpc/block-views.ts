/**
 * The JSON shapes of blocks in the daemon RPC (docs/rpc.md § Block header, § NODE.GetBlock).
 */
import type { Block } from '../../../protocol/block.js';
import type { BlockHeaderJson } from '../../../protocol/block-header-json.js';
import { toHex } from '../../../protocol/bytes.js';
import { encodeMiniblock, type Miniblock } from '../../../protocol/miniblock.js';
import { TxType } from '../../../protocol/transaction.js';
import type { BlockMeta } from '../chain-store.js';

export interface HeaderContext {
  /** Height of the main-chain top. */
  topHeight: bigint;
  /** Topoheight of this block on the main chain, or null when it is a side block. */
  topoheight: bigint | null;
  /** Address of the coinbase key (the block's integrator). */
  integratorAddress: string;
  /** Whether the block is stable (at or below the stable height) on the main chain. */
  stable: boolean;
}

export function blockHeaderView(block: Block, meta: BlockMeta, context: HeaderContext): BlockHeaderJson {
  const genesis = block.height === 0n;
  return {
    depth: Number(context.topHeight - meta.height),
    difficulty: meta.difficulty.toString(),
    hash: toHex(meta.id),
    height: Number(meta.height),
    topoheight: context.topoheight === null ? -1 : Number(context.topoheight),
    major_version: block.majorVersion,
    minor_version: block.minorVersion,
    nonce: 0,
    orphan_status: false,
    syncblock: context.topoheight !== null && context.stable,
    sideblock: context.topoheight === null,
    txcount: block.txHashes.length,
    miners: genesis ? null : block.miniblocks.map((mb) => (mb.final ? context.integratorAddress : toHex(mb.keyHash))),
    reward: Number(meta.reward),
    tips: genesis ? null : block.tips.map(toHex),
    timestamp: Number(block.timestamp),
  };
}

const bytesArray = (bytes: Uint8Array): number[] => Array.from(bytes);

function miniblockView(mb: Miniblock) {
  return {
    Version: mb.version,
    HighDiff: mb.highDiff,
    Final: mb.final,
    PastCount: mb.pastCount,
    Timestamp: mb.timestamp,
    Height: Number(mb.height),
    Past: [...mb.past],
    KeyHash: toHex(mb.keyHash),
    Flags: mb.flags,
    Nonce: [...mb.nonce],
  };
}

/** The `json` field of `NODE.GetBlock`: the block as JSON text. */
export function blockJson(block: Block): string {
  const tx = block.minerTx;
  const zero32 = new Uint8Array(32);
  return JSON.stringify({
    major_version: block.majorVersion,
    minor_version: block.minorVersion,
    timestamp: Number(block.timestamp),
    height: Number(block.height),
    miner_tx: {
      version: tx.version,
      source_network: tx.sourceNetwork,
      dest_network: tx.destNetwork,
      txtype: tx.type,
      value: tx.type === TxType.Premine ? Number(tx.value) : 0,
      miner_address: bytesArray(tx.key),
      c: bytesArray(zero32),
      s: bytesArray(zero32),
      height: 0,
      blid: bytesArray(zero32),
      scdata: null,
      Payloads: null,
    },
    state_root: toHex(block.stateRoot),
    tips: block.tips.map(toHex),
    miniblocks: block.miniblocks.map(miniblockView),
    miniblocks_hex: block.miniblocks.map((mb) => toHex(encodeMiniblock(mb))),
    tx_hashes: block.txHashes.map(toHex),
  });
}
