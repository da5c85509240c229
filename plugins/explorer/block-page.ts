/**
 * The block page (`/explorer/block/<height or hash>`): the header as GetBlockHeaderByHash reports it, the miniblocks
 * and their miners' key hashes, the miner transaction, the transactions, and links to the parent and the child.
 */
import type { BlockHeaderJson } from '../../protocol/block-header-json.js';
import { encodeAddress } from '../../protocol/address.js';
import { fromHex, toHex } from '../../protocol/bytes.js';
import type { NetworkName } from '../../protocol/network.js';
import type { ChainService } from '../../host/services/chain.js';
import type { DaemonQuery } from './daemon-queries.js';
import { notFound } from './explorer-error.js';
import { html } from './html.js';
import {
  addressLink,
  amount,
  blockHashLink,
  blockLink,
  facts,
  id,
  page,
  table,
  txLink,
  utc,
  wholeId,
} from './layout.js';
import { summariseTransaction, TX_TYPE_NAMES, type TransactionSummary } from './transaction-summary.js';

export interface BlockView {
  header: BlockHeaderJson;
  /** The main-chain block after this one, if any. */
  child: string | null;
  miniblocks: { final: boolean; keyHash: string; height: number }[];
  minerTx: { type: string; address: string; value?: bigint };
  transactions: TransactionSummary[];
}

const HEIGHT = /^[0-9]{1,19}$/;
const HASH = /^[0-9a-fA-F]{64}$/;

export async function blockView(
  id: string,
  sources: { chain: ChainService; query: DaemonQuery; network: NetworkName },
): Promise<BlockView> {
  const { chain, query } = sources;
  let answer;
  if (HEIGHT.test(id)) {
    if (BigInt(id) > chain.top.height)
      throw notFound(`height ${id} is past the top of the chain (${chain.top.height})`);
    answer = await query('NODE.GetBlockHeaderByTopoHeight', { topoheight: Number(id) });
  } else if (HASH.test(id)) answer = await query('NODE.GetBlockHeaderByHash', { hash: id });
  else throw notFound(`'${id}' is neither a block height nor a block hash (64 hex digits)`);
  const header = answer.block_header;
  const blockId = fromHex(header.hash, 32);
  const block = chain.block(blockId)!;
  const child = header.topoheight === -1 ? undefined : chain.metaAtTopo(BigInt(header.topoheight) + 1n);
  const minerTx = block.minerTx;
  return {
    header,
    child: child ? toHex(child.id) : null,
    miniblocks: block.miniblocks.map((mb) => ({
      final: mb.final,
      keyHash: toHex(mb.keyHash),
      height: Number(mb.height),
    })),
    minerTx: {
      type: TX_TYPE_NAMES[minerTx.type],
      address: encodeAddress(sources.network, minerTx.key),
      ...('value' in minerTx && { value: minerTx.value }),
    },
    transactions: block.txHashes.map((txid) => summariseTransaction(txid, chain.storedTransaction(txid)!)),
  };
}

export function renderBlock(view: BlockView): string {
  const h = view.header;
  const parent = h.tips?.[0] as string | undefined;
  const main = html`<h1>Block ${h.height}</h1>
<p class="links">${parent ? html`${blockLink(parent, '← parent')}` : 'genesis: no parent'} · ${view.child ? blockLink(view.child, 'child →') : 'no child yet'}</p>
${facts([
  ['Hash', wholeId(h.hash, 'block hash')],
  ['Height', h.height],
  ['Topoheight', h.topoheight === -1 ? 'side block (not on the main chain)' : h.topoheight],
  ['Time', utc(h.timestamp)],
  ['Depth', h.depth],
  ['Difficulty', h.difficulty],
  ['Reward', amount(BigInt(h.reward))],
  ['Transactions', h.txcount],
  ['Stable', h.syncblock ? 'yes' : 'no'],
  ['Version', `${h.major_version}.${h.minor_version}`],
  ['Tips', (h.tips ?? []).map((tip: string) => html`${blockHashLink(tip)} `)],
])}
<h2>Miner transaction</h2>
${facts([
  ['Type', view.minerTx.type],
  ['Paid to', addressLink(view.minerTx.address)],
  ...(view.minerTx.value !== undefined ? [['Premine', amount(view.minerTx.value)] as [string, unknown]] : []),
])}
<h2>Miniblocks (${view.miniblocks.length})</h2>
${
  view.miniblocks.length === 0
    ? html`<p>None: the genesis block is not mined.</p>`
    : table(
        'miniblocks',
        ['#', 'Miner key hash', 'Final'],
        view.miniblocks.map((mb, i) => [i, id(mb.keyHash, 'key hash'), mb.final ? 'final (integrator)' : '']),
      )
}
<h2>Transactions (${view.transactions.length})</h2>
${
  view.transactions.length === 0
    ? html`<p>No transactions in this block.</p>`
    : table(
        'transactions',
        ['Txid', 'Type', 'Size (bytes)', 'Fee'],
        view.transactions.map((tx) => [txLink(tx.txid), tx.type, tx.size, amount(tx.fee)]),
      )
}`;
  return page({ title: `Block ${h.height}` }, main);
}
