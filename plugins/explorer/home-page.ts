/**
 * The home page: chain figures, peers and pool, the getwork server's miners, the last blocks, and the charts (drawn by
 * the page's script).
 */
import { ATOMIC_UNITS_PER_COIN } from '../../protocol/chain-params.js';
import { hashRateEstimateText } from '../../protocol/hash-rate.js';
import { html, raw, scriptJson } from './html.js';
import { addressLink, amount, BASE, blockHashLink, blockLink, facts, page, table, utc } from './layout.js';
import type { HomeView } from './home-view.js';
import { type ConnectedMiner, SHARE_BLOCKS } from '../../host/services/miners.js';

function minersSection(miners: ConnectedMiner[]) {
  return html`<section>
<h2>Connected miners (${miners.length})</h2>
${table(
  'miners',
  [
    'Address',
    'Connected since',
    'Jobs',
    'Accepted',
    'Rejected',
    'Blocks',
    `Share of the last ${SHARE_BLOCKS} blocks' miniblocks`,
  ],
  miners.map((miner) => [
    addressLink(miner.address),
    utc(miner.since),
    miner.jobs,
    miner.accepted,
    miner.rejected,
    miner.blocks,
    `${(miner.share * 100).toFixed(1)} %`,
  ]),
)}
</section>`;
}

export function renderHome(view: HomeView): string {
  const main = html`<h1>Umbra ${view.network}</h1>
<section id="summary" data-top="${view.topHash}">
${facts([
  ['Height', html`<span id="height">${view.height}</span>`],
  ['Topoheight', view.topoheight],
  ['Stable height', view.stableheight],
  ['Difficulty', view.difficulty],
  ...(view.hashrate === null
    ? []
    : [
        ['Estimated hash rate', html`<span id="hashrate">${hashRateEstimateText(view.hashrate)}</span>`] as [
          string,
          unknown,
        ],
      ]),
  [
    'Average block time',
    `${view.averageBlockTimeS.toFixed(1)} s over the last ${view.charts.blockTimeS.length} blocks (target ${view.targetBlockTimeS} s)`,
  ],
  ['Supply', amount(BigInt(view.supplyCoins) * ATOMIC_UNITS_PER_COIN)],
  ['Pool', html`<a href="${BASE}pool">${view.poolSize} transaction${view.poolSize === 1 ? '' : 's'}</a>`],
  ['Peers', `${view.peers.incoming} in, ${view.peers.outgoing} out`],
  ['Version', view.version],
])}
</section>
${view.miners.length === 0 ? '' : minersSection(view.miners)}
<section>
<h2>Charts over the last ${view.charts.height.length} blocks</h2>
<div class="charts">
<figure><figcaption>Block time (s)</figcaption><div id="chart-blocktime" class="chart"><noscript>Charts need JavaScript.</noscript></div></figure>
<figure><figcaption>Difficulty</figcaption><div id="chart-difficulty" class="chart"></div></figure>
<figure><figcaption>Transactions per block</figcaption><div id="chart-txcount" class="chart"></div></figure>
</div>
<script type="application/json" id="chart-data">${scriptJson(view.charts)}</script>
</section>
<section>
<h2>Last ${view.blocks.length} blocks</h2>
${table(
  'blocks',
  ['Height', 'Hash', 'Time', 'Transactions', 'Size (bytes)', 'Difficulty'],
  view.blocks.map((block) => [
    blockLink(block.height),
    blockHashLink(block.hash),
    utc(block.timestamp),
    block.txcount,
    block.size,
    block.difficulty,
  ]),
)}
</section>`;
  return page(
    {
      title: `Height ${view.height}`,
      head: raw(`<link rel="stylesheet" href="${BASE}assets/uPlot.min.css">`),
      scripts: raw(`<script src="${BASE}assets/uPlot.iife.min.js"></script>`),
    },
    main,
  );
}
