/**
 * The search box: what a query names, as the explorer path to show it. A height, a block hash, a txid (mined or in
 * the pool), a SCID, an address, or a name registered with the name service contract; nothing found is a not-found
 * error saying what was tried.
 */
import { fromHex } from '../../protocol/bytes.js';
import type { ChainService } from '../../host/services/chain.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';
import type { DaemonQuery } from './daemon-queries.js';
import { ExplorerError, notFound } from './explorer-error.js';
import { BASE } from './layout.js';

export interface SearchSources {
  chain: ChainService;
  pool: TxPoolService | undefined;
  query: DaemonQuery;
  /** Whether the text is an address of this network. */
  isAddress(text: string): boolean;
}

/** Longest query taken (an integrated address is the longest thing one can search for). */
const MAX_QUERY = 512;

/** Whether a query that may fail found something. */
async function exists(ask: () => Promise<unknown>): Promise<boolean> {
  try {
    await ask();
    return true;
  } catch (error) {
    if (error instanceof ExplorerError) return false;
    throw error;
  }
}

export async function searchPath(text: string, sources: SearchSources): Promise<string> {
  const q = text.trim();
  if (q === '') throw notFound('type a height, block hash, txid, SCID, address or registered name to search');
  if (q.length > MAX_QUERY) throw notFound(`a search is at most ${MAX_QUERY} characters`);
  const { chain, pool, query } = sources;
  // Heights are at most 20 digits: 64 digits is a hash, like the name service's SCID 00…01.
  if (/^[0-9]{1,20}$/.test(q)) {
    if (BigInt(q) > chain.top.height) throw notFound(`height ${q} is past the top of the chain (${chain.top.height})`);
    return `${BASE}block/${BigInt(q)}`;
  }
  if (/^[0-9a-fA-F]{64}$/.test(q)) {
    const id = fromHex(q, 32);
    const hex = q.toLowerCase();
    if (chain.meta(id)) return `${BASE}block/${hex}`;
    // A SCID is its install's txid: the contract page comes first, and lists that transaction.
    if (await exists(() => query('NODE.GetSC', { scid: hex, code: false }))) return `${BASE}contract/${hex}`;
    if (pool?.has(id) || chain.includingBlock(id)) return `${BASE}tx/${hex}`;
    throw notFound(`no block, transaction or contract ${hex} on this chain`);
  }
  if (sources.isAddress(q)) return `${BASE}address/${q}`;
  let owner: string | undefined;
  try {
    owner = (await query('NODE.NameToAddress', { name: q })).address;
  } catch (error) {
    if (!(error instanceof ExplorerError)) throw error;
  }
  if (owner !== undefined) return `${BASE}address/${owner}`;
  throw notFound(`'${q}' is not a height, hash, address or registered name on this chain`);
}
