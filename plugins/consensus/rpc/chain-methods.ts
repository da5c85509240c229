/**
 * The chain's daemon RPC methods: GetInfo, GetHeight, GetBlockCount, GetLastBlockHeader, GetBlockHeaderByTopoHeight,
 * GetBlockHeaderByHash, GetBlock (docs/rpc.md § Daemon methods). Unknown hashes and heights out of range are errors.
 */
import { toHex, fromHex } from '../../../protocol/bytes.js';
import { ATOMIC_UNITS_PER_COIN, TARGET_BLOCK_TIME_MS } from '../../../protocol/chain-params.js';
import type { NetworkParams } from '../../../protocol/network.js';
import { QueryError, QueryErrorCode } from '../../../protocol/query-errors.js';
import { noParams, objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import type { InfoContributions, MiningFigures } from '../../../host/services/chain-info.js';
import type { Chain } from '../chain.js';
import type { BlockMeta } from '../chain-store.js';
import type { BlockHeaderJson } from '../../../protocol/block-header-json.js';
import { blockHeaderView, blockJson } from './block-views.js';
import { ChainSummary } from './chain-summary.js';
import { minimumFee } from '../../../protocol/transfer-checks.js';

export interface ChainRpcDeps {
  chain: Chain;
  network: NetworkParams;
  version: string;
  /** Encodes a 33-byte key as an address of this network. */
  addressOf(key: Uint8Array): string;
  info: InfoContributions;
}

/** A stored block's header as GetBlockHeaderByHash answers it (also what the `block` push topic carries). */
export function chainBlockHeader(
  chain: Chain,
  meta: BlockMeta,
  addressOf: (key: Uint8Array) => string,
): BlockHeaderJson {
  const block = chain.heldBlock(meta);
  return blockHeaderView(block, meta, {
    topHeight: chain.top.height,
    topoheight: chain.topoOf(meta),
    integratorAddress: addressOf(block.minerTx.key),
    stable: meta.height <= chain.stableHeight(),
  });
}

/** GetInfo's mining fields without the mining plugin. */
const NO_MINING: MiningFigures = {
  connected_miners: 0,
  miniblocks_in_memory: 0,
  blocks_count: 0,
  miniblocks_accepted_count: 0,
  miniblocks_rejected_count: 0,
  mining_velocity: 0,
  hashrate_1hr: 0,
  hashrate_1d: 0,
  hashrate_7d: 0,
};

export function chainMethods(deps: ChainRpcDeps): RpcMethod[] {
  return [getInfoMethod(deps), ...heightMethods(deps.chain), ...blockMethods(deps)];
}

function metaAtTopo(chain: Chain, topoheight: number, field: string): BlockMeta {
  const top = chain.top.height;
  if (BigInt(topoheight) > top)
    throw new QueryError(
      QueryErrorCode.TopoheightOffChain,
      `${field} ${topoheight} is above the chain's top topoheight ${top}`,
    );
  return chain.heldMetaAtTopo(BigInt(topoheight));
}

function metaByHash(chain: Chain, hash: string): BlockMeta {
  const meta = chain.blocks.getMeta(fromHex(hash, 32));
  if (!meta) throw new QueryError(QueryErrorCode.UnknownBlock, `unknown block hash ${hash}`);
  return meta;
}

function getInfoMethod(deps: ChainRpcDeps): RpcMethod {
  const summary = new ChainSummary();
  const startedAt = Date.now();
  return defineMethod({
    name: 'NODE.GetInfo',
    aliases: ['getinfo', 'get_info'],
    params: noParams,
    handler: () => {
      const chain = deps.chain;
      const top = chain.top;
      const peers = deps.info.peers?.() ?? { incoming: 0, outgoing: 0, white: 0, grey: 0 };
      const figures = summary.of(chain);
      return {
        alt_blocks_count: chain.orphanBlocks,
        difficulty: figures.difficulty,
        grey_peerlist_size: peers.grey,
        height: Number(top.height),
        stableheight: Number(chain.stableHeight()),
        topoheight: Number(top.height),
        treehash: toHex(top.stateRoot),
        averageblocktime50: figures.averageBlockTimeS,
        incoming_connections_count: peers.incoming,
        outgoing_connections_count: peers.outgoing,
        target: Number(TARGET_BLOCK_TIME_MS / 1000n),
        target_height: Math.max(Number(top.height), deps.info.peerHeight?.() ?? 0),
        fast_sync: deps.info.fastSync?.() ?? null,
        testnet: deps.network.testnet,
        network: deps.network.name,
        top_block_hash: toHex(top.id),
        tx_count: figures.txCount,
        tx_pool_size: deps.info.txPoolSize?.() ?? 0,
        dynamic_fee_per_kb: deps.network.name === 'simulator' ? 0 : Number(minimumFee(1024)),
        total_supply: Number(figures.supply / ATOMIC_UNITS_PER_COIN),
        median_block_size: top.size,
        white_peerlist_size: peers.white,
        version: deps.version,
        uptime: Math.floor((Date.now() - startedAt) / 1000),
        ...(deps.info.mining?.() ?? NO_MINING),
        status: 'OK',
      };
    },
  });
}

/** GetHeight and GetBlockCount. */
function heightMethods(chain: Chain): RpcMethod[] {
  return [
    defineMethod({
      name: 'NODE.GetHeight',
      aliases: ['getheight'],
      params: noParams,
      handler: () => ({
        height: Number(chain.top.height),
        stableheight: Number(chain.stableHeight()),
        topoheight: Number(chain.top.height),
        status: 'OK',
      }),
    }),
    defineMethod({
      name: 'NODE.GetBlockCount',
      aliases: ['getblockcount'],
      params: noParams,
      handler: () => ({ count: Number(chain.top.height) + 1, status: 'OK' }),
    }),
  ];
}

/** The block header methods and GetBlock. */
function blockMethods(deps: ChainRpcDeps): RpcMethod[] {
  const { chain } = deps;
  const header = (meta: BlockMeta) => chainBlockHeader(chain, meta, deps.addressOf);
  return [
    defineMethod({
      name: 'NODE.GetLastBlockHeader',
      aliases: ['getlastblockheader'],
      params: noParams,
      handler: () => ({ block_header: header(chain.top), status: 'OK' }),
    }),
    defineMethod({
      name: 'NODE.GetBlockHeaderByTopoHeight',
      aliases: ['getblockheaderbytopoheight'],
      params: objectParams(p.object({ topoheight: p.uint() })),
      handler: ({ topoheight }) => ({
        block_header: header(metaAtTopo(chain, topoheight, 'topoheight')),
        status: 'OK',
      }),
    }),
    defineMethod({
      name: 'NODE.GetBlockHeaderByHash',
      aliases: ['getblockheaderbyhash'],
      params: objectParams(p.object({ hash: p.hash() })),
      handler: ({ hash }) => ({ block_header: header(metaByHash(chain, hash)), status: 'OK' }),
    }),
    defineMethod({
      name: 'NODE.GetBlock',
      aliases: ['getblock'],
      params: objectParams(
        p.object({ hash: p.optional(p.hash(), undefined), height: p.optional(p.uint(), undefined) }),
      ),
      handler: ({ hash, height }) => {
        if (hash === undefined && height === undefined)
          throw new QueryError(QueryErrorCode.NoBlockGiven, 'give either hash or height');
        const meta = hash !== undefined ? metaByHash(chain, hash) : metaAtTopo(chain, height!, 'height');
        const block = chain.heldBlock(meta);
        const bytes = chain.blocks.getBlockBytes(meta.id)!;
        return { blob: toHex(bytes), json: blockJson(block), block_header: header(meta), status: 'OK' };
      },
    }),
  ];
}
