/**
 * The home page's figures: GetInfo's summary and hash rate, the peers and pool, the getwork server's miners, the last
 * blocks, and the chart series (block time, difficulty, transactions per block over the last blocks). Intervals are
 * taken between consecutive mined blocks, never from the genesis block's timestamp 0. Everything per-block is
 * recomputed only when the top, the pool, the peers or the miners' counts change, so serving the page costs next to
 * nothing between blocks.
 */
import { toHex } from '../../protocol/bytes.js';
import { TARGET_BLOCK_TIME_MS } from '../../protocol/chain-params.js';
import type { BlockMeta, ChainService } from '../../host/services/chain.js';
import type { ConnectedMiner } from '../../host/services/miners.js';
import type { P2pService } from '../../host/services/p2p.js';
import type { DaemonQuery } from './daemon-queries.js';

export const RECENT_BLOCKS = 20;
export const CHART_BLOCKS = 500;

export interface BlockRow {
  height: number;
  hash: string;
  timestamp: number;
  txcount: number;
  size: number;
  difficulty: bigint;
}

export interface HomeView {
  network: string;
  version: string;
  height: number;
  topoheight: number;
  stableheight: number;
  topHash: string;
  difficulty: bigint;
  /**
   * Hashes per second: the accepted miniblocks' difficulty over the hour up to the top block (GetInfo's hashrate_1hr).
   * null on the simulator, which mines on demand.
   */
  hashrate: number | null;
  /** Mean seconds between the consecutive mined blocks of the chart span (0 before two blocks are mined). */
  averageBlockTimeS: number;
  targetBlockTimeS: number;
  /** Whole coins in existence (GetInfo's total_supply). */
  supplyCoins: number;
  poolSize: number;
  peers: { incoming: number; outgoing: number };
  /** Miners connected to the getwork server. */
  miners: ConnectedMiner[];
  blocks: BlockRow[];
  /** Column-wise series for the charts, one entry per mined block (genesis excluded). */
  charts: { height: number[]; blockTimeS: number[]; difficulty: number[]; txcount: number[] };
}

export interface HomeSources {
  chain: ChainService;
  query: DaemonQuery;
  p2p: P2pService | undefined;
  poolSize(): number;
  miners(): ConnectedMiner[];
}

const row = (meta: BlockMeta): BlockRow => ({
  height: Number(meta.height),
  hash: toHex(meta.id),
  timestamp: Number(meta.timestamp),
  txcount: meta.txCount,
  size: meta.size,
  difficulty: meta.difficulty,
});

function chartSeries(chain: ChainService, top: BlockMeta): HomeView['charts'] {
  const charts: HomeView['charts'] = { height: [], blockTimeS: [], difficulty: [], txcount: [] };
  const first = top.height > BigInt(CHART_BLOCKS) ? top.height - BigInt(CHART_BLOCKS) + 1n : 1n;
  let previous = chain.metaAtTopo(first - 1n);
  for (let h = first; h <= top.height; h++) {
    const meta = chain.metaAtTopo(h);
    // Below a fast-synced node's history floor there are no blocks to chart.
    if (!meta) continue;
    charts.height.push(Number(h));
    // Block 1's parent is genesis (timestamp 0): it has no interval of its own.
    charts.blockTimeS.push(
      !previous || previous.height === 0n ? Number.NaN : Number(meta.timestamp - previous.timestamp) / 1000,
    );
    charts.difficulty.push(Number(meta.difficulty));
    charts.txcount.push(meta.txCount);
    previous = meta;
  }
  return charts;
}

/** Home figures, cached until the top block, the pool size or the peer counts change (one computation per change). */
export function homeView(sources: HomeSources): () => Promise<HomeView> {
  let cached: { key: string; view: Promise<HomeView> } | undefined;

  const compute = async (
    top: BlockMeta,
    poolSize: number,
    peers: HomeView['peers'],
    miners: ConnectedMiner[],
  ): Promise<HomeView> => {
    const { chain } = sources;
    const info = await sources.query('NODE.GetInfo');
    const blocks: BlockRow[] = [];
    // A fast-synced node holds no blocks below its history floor: the list stops there.
    for (
      let h = top.height, meta = chain.metaAtTopo(h);
      meta && blocks.length < RECENT_BLOCKS;
      meta = chain.metaAtTopo(--h)
    )
      blocks.push(row(meta));
    const charts = chartSeries(chain, top);
    const intervals = charts.blockTimeS.filter((s) => !Number.isNaN(s));
    const averageBlockTimeS = intervals.length === 0 ? 0 : intervals.reduce((a, b) => a + b, 0) / intervals.length;
    const difficulty = chain.difficultyAfter(top);
    return {
      network: info.network,
      version: info.version,
      height: Number(top.height),
      topoheight: Number(top.height),
      stableheight: info.stableheight,
      topHash: toHex(top.id),
      difficulty,
      hashrate: info.network === 'simulator' ? null : info.hashrate_1hr,
      averageBlockTimeS,
      targetBlockTimeS: Number(TARGET_BLOCK_TIME_MS) / 1000,
      supplyCoins: info.total_supply,
      poolSize,
      peers,
      miners,
      blocks,
      charts,
    };
  };

  return () => {
    const top = sources.chain.top;
    const counts = sources.p2p?.counts() ?? { incoming: 0, outgoing: 0 };
    const poolSize = sources.poolSize();
    const miners = sources.miners();
    const key = `${toHex(top.id)}:${poolSize}:${counts.incoming}:${counts.outgoing}:${JSON.stringify(miners)}`;
    if (cached?.key !== key) {
      const view = compute(top, poolSize, { incoming: counts.incoming, outgoing: counts.outgoing }, miners);
      cached = { key, view };
      // A failed computation is not kept: the next request tries again.
      view.catch(() => {
        if (cached?.view === view) cached = undefined;
      });
    }
    return cached.view;
  };
}
