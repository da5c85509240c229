/**
 * The explorer's static files, read or built once at start-up and served from memory under /explorer/assets/: its
 * stylesheet, its page script (charts on the home page, and a live refresh of the home page when a block arrives),
 * and uPlot, the charting library, from the installed package — no CDN.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface Asset {
  body: string;
  contentType: string;
}

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
header { display: flex; flex-wrap: wrap; gap: 1em; align-items: center; padding: .6em 1.2em; background: #1d2330; color: #fff; }
header a { color: #fff; text-decoration: none; }
.brand { font-weight: 700; font-size: 1.1em; }
nav a { margin-right: .8em; }
header form { margin-left: auto; display: flex; gap: .3em; }
header input { width: 26em; max-width: 60vw; padding: .3em .5em; }
main { padding: 1em 1.2em; max-width: 1200px; }
h1 { font-size: 1.4em; margin: .2em 0 .6em; }
h2 { font-size: 1.1em; margin: 1.4em 0 .5em; }
a { color: #1f5fbf; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25em 1.2em; margin: 0; }
.facts dt { color: #5a6272; }
.facts dd { margin: 0; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: .3em .6em; border-bottom: 1px solid #e3e6eb; vertical-align: top; }
.hash, .value { font-family: ui-monospace, monospace; font-size: .9em; word-break: break-all; }
pre.code { background: #fff; border: 1px solid #e3e6eb; padding: .8em; overflow: auto; font-size: .85em; }
.charts { display: flex; flex-wrap: wrap; gap: 1em; }
.charts figure { margin: 0; background: #fff; border: 1px solid #e3e6eb; padding: .4em; }
.charts figcaption { font-size: .9em; color: #5a6272; }
.chart { width: 360px; min-height: 180px; }
.error, .outcome-failed, .outcome-returned { color: #b3261e; }
.outcome-committed { color: #1e7b34; }
.note { color: #5a6272; font-size: .9em; }
.links { margin-top: -.4em; }
ol.ring { margin: .3em 0; }
.proof-check form { display: flex; flex-wrap: wrap; gap: .4em; }
.proof-check label { flex-basis: 100%; }
.proof-check input { flex: 1 1 16em; min-width: 0; padding: .3em .5em; font-family: ui-monospace, monospace; }
.proof-result { overflow-wrap: anywhere; }
`;

/** Draws the home page's charts and, every few seconds, swaps in a fresh home page when the top block changed. */
const SCRIPT = `(() => {
  const REFRESH_MS = 5000;
  function drawCharts() {
    const source = document.getElementById('chart-data');
    if (!source || typeof uPlot === 'undefined') return;
    const data = JSON.parse(source.textContent);
    const series = [
      ['chart-blocktime', data.blockTimeS, 's'],
      ['chart-difficulty', data.difficulty, ''],
      ['chart-txcount', data.txcount, 'txs'],
    ];
    for (const [id, values, label] of series) {
      const target = document.getElementById(id);
      if (!target) continue;
      target.textContent = '';
      const points = values.map((v) => (v === null ? null : v));
      new uPlot(
        { width: 360, height: 180, legend: { show: false }, scales: { x: { time: false } },
          series: [{ label: 'height' }, { label, stroke: '#1f5fbf', width: 1.5, spanGaps: false }] },
        [data.height, points],
        target,
      );
    }
  }
  async function refresh() {
    const summary = document.getElementById('summary');
    if (!summary) return;
    try {
      const response = await fetch(location.pathname + '?format=json', { headers: { Accept: 'application/json' } });
      if (!response.ok) return;
      const view = await response.json();
      if (view.topHash === summary.dataset.top) return;
      const page = await fetch(location.pathname);
      if (!page.ok) return;
      const fresh = new DOMParser().parseFromString(await page.text(), 'text/html').querySelector('main');
      if (!fresh) return;
      document.querySelector('main').replaceWith(fresh);
      drawCharts();
    } catch {
      // The node may be restarting: try again at the next tick.
    }
  }
  drawCharts();
  if (document.getElementById('summary')) setInterval(refresh, REFRESH_MS);
})();
`;

/** Every asset by its file name, with uPlot read from the installed package. */
export function loadAssets(): Map<string, Asset> {
  const require = createRequire(import.meta.url);
  const uplot = (file: string): string => readFileSync(require.resolve(`uplot/dist/${file}`), 'utf8');
  return new Map<string, Asset>([
    ['explorer.css', { body: STYLE, contentType: 'text/css; charset=utf-8' }],
    ['explorer.js', { body: SCRIPT, contentType: 'text/javascript; charset=utf-8' }],
    ['uPlot.min.css', { body: uplot('uPlot.min.css'), contentType: 'text/css; charset=utf-8' }],
    ['uPlot.iife.min.js', { body: uplot('uPlot.iife.min.js'), contentType: 'text/javascript; charset=utf-8' }],
  ]);
}
