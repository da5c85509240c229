/** The home page: chain figures, peers and pool, the last blocks, and the charts (drawn by the page's script). */
import { formatCoins } from '../../host/protocol/coin-amount.js';
import { ATOMIC_UNITS_PER_COIN } from '../../host/protocol/chain-params.js';
import { hashRateText } from '../../host/protocol/hash-rate.js';
import { html, raw, scriptJson } from './html.js';
import { BASE, blockLink, facts, hash, page, utc } from './layout.js';
import type { HomeView } from './home-view.js';

export function renderHome(view: HomeView): string {
  const main = html`<h1>Umbra ${view.network}</h1>
<section id="summary" data-top="${view.topHash}">
${facts([
  ['Height', html`<span id="height">${view.height}</span>`],
  ['Topoheight', view.topoheight],
  ['Stable height', view.stableheight],
  ['Difficulty', view.difficulty],
  ['Estimated hash rate', hashRateText(view.hashrate)],
  [
    'Average block time',
    `${view.averageBlockTimeS.toFixed(1)} s over the last ${view.charts.blockTimeS.length} blocks (target ${view.targetBlockTimeS} s)`,
  ],
  ['Supply', `${formatCoins(BigInt(view.supplyCoins) * ATOMIC_UNITS_PER_COIN)} UMB`],
  ['Pool', html`<a href="${BASE}pool">${view.poolSize} transaction${view.poolSize === 1 ? '' : 's'}</a>`],
  ['Peers', `${view.peers.incoming} in, ${view.peers.outgoing} out`],
  ['Version', view.version],
])}
</section>
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
<table id="blocks">
<thead><tr><th>Height</th><th>Hash</th><th>Time</th><th>Transactions</th><th>Size (bytes)</th><th>Difficulty</th></tr></thead>
<tbody>${view.blocks.map(
    (block) =>
      html`<tr><td>${blockLink(block.height)}</td><td>${blockLink(block.hash, hash(block.hash))}</td><td>${utc(block.timestamp)}</td><td>${block.txcount}</td><td>${block.size}</td><td>${block.difficulty}</td></tr>`,
  )}</tbody>
</table>
</section>`;
  return page(
    {
      title: `Height ${view.height}`,
      head: raw(`<link rel="stylesheet" href="${BASE}assets/uPlot.min.css">`),
      scripts: raw(
        `<script src="${BASE}assets/uPlot.iife.min.js"></script>\n<script src="${BASE}assets/explorer.js"></script>`,
      ),
    },
    main,
  );
}
