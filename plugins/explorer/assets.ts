/**
 * The explorer's static files, read or built once at start-up and served from memory under /explorer/assets/: its
 * stylesheet (a phone-width layout below 640 px), its page script (copy buttons; charts and a live refresh on the home
 * page), and uPlot, the charting library, from the installed package — no CDN.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface Asset {
  body: string;
  contentType: string;
}

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
header { display: flex; flex-wrap: wrap; gap: .6em 1em; align-items: center; padding: .6em 1.2em; background: #1d2330; color: #fff; }
header a { color: #fff; text-decoration: none; }
.brand { font-weight: 700; font-size: 1.1em; }
nav a { margin-right: .8em; }
header form { margin-left: auto; display: flex; gap: .3em; flex: 1 1 18em; max-width: 32em; }
header input { flex: 1; min-width: 0; padding: .3em .5em; }
main { padding: 1em 1.2em; max-width: 1200px; }
h1 { font-size: 1.4em; margin: .2em 0 .6em; }
h2 { font-size: 1.1em; margin: 1.4em 0 .5em; }
a { color: #1f5fbf; }
.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .25em 1.2em; margin: 0; }
.facts dt { color: #5a6272; }
.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.table-box { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: .3em .6em; border-bottom: 1px solid #e3e6eb; vertical-align: top; }
.hash, .value { font-family: ui-monospace, monospace; font-size: .9em; }
.value, .whole .hash { word-break: break-all; }
.id { white-space: nowrap; }
.id.whole { white-space: normal; }
.copy { display: none; vertical-align: middle; margin-left: .25em; padding: .1em .2em; border: 1px solid #c9ced8; border-radius: 4px; background: #fff; color: #5a6272; cursor: pointer; line-height: 0; }
.js .copy { display: inline-block; }
.copy svg { fill: none; stroke: currentColor; stroke-width: 1.4; }
.copy:hover, .copy:focus-visible { color: #1f5fbf; border-color: #1f5fbf; }
.copy.copied { color: #1e7b34; border-color: #1e7b34; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
pre.code { background: #fff; border: 1px solid #e3e6eb; padding: .8em; overflow: auto; font-size: .85em; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 320px), 1fr)); gap: 1em; }
.charts figure { margin: 0; min-width: 0; background: #fff; border: 1px solid #e3e6eb; padding: .4em; }
.charts figcaption { font-size: .9em; color: #5a6272; }
.chart { min-height: 180px; overflow: hidden; }
.error, .outcome-failed, .outcome-returned { color: #b3261e; }
.outcome-committed { color: #1e7b34; }
.note { color: #5a6272; font-size: .9em; }
.links { margin-top: -.4em; }
ol.ring { margin: .3em 0; }
.proof-check form { display: flex; flex-wrap: wrap; gap: .4em; }
.proof-check label { flex-basis: 100%; }
.proof-check input { flex: 1 1 16em; min-width: 0; padding: .3em .5em; font-family: ui-monospace, monospace; }
.proof-result { overflow-wrap: anywhere; }
@media (max-width: 640px) {
  header, main { padding-left: .8em; padding-right: .8em; }
  .facts { grid-template-columns: minmax(0, 1fr); gap: 0; }
  .facts dd { margin-bottom: .5em; }
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.cards, table.cards tbody, table.cards tr { display: block; }
  table.cards { background: none; }
  table.cards tr { margin: 0 0 .6em; padding: .3em .6em; background: #fff; border: 1px solid #e3e6eb; }
  table.cards td { display: grid; grid-template-columns: 8.5em minmax(0, 1fr); gap: .6em; padding: .15em 0; border: 0; overflow-wrap: anywhere; }
  table.cards td::before { content: attr(data-label); color: #5a6272; }
}
`;

/**
 * On every page: shows the copy buttons and makes them copy (announcing it to screen readers); on the home page,
 * draws the charts at the width of their box, redrawn when it changes, and every few seconds swaps in a fresh home
 * page when the top block changed.
 */
const SCRIPT = `(() => {
  const REFRESH_MS = 5000;
  const CHART_HEIGHT = 180;
  document.documentElement.classList.add('js');

  const announcer = document.createElement('span');
  announcer.className = 'visually-hidden';
  announcer.setAttribute('role', 'status');
  document.body.append(announcer);
  async function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    // Over plain HTTP to another host the clipboard API is withheld: copy through a selection instead.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    if (!copied) throw new Error('the browser refused to copy');
  }
  document.addEventListener('click', async (event) => {
    const button = event.target instanceof Element ? event.target.closest('button.copy') : null;
    if (!button) return;
    try {
      await copyText(button.dataset.copy);
      button.classList.add('copied');
      announcer.textContent = 'Copied the ' + button.dataset.what;
      setTimeout(() => button.classList.remove('copied'), 1500);
    } catch {
      announcer.textContent = 'Could not copy: the whole ' + button.dataset.what + ' is in the title of the text beside the button';
    }
  });

  let observers = [];
  function drawCharts() {
    for (const observer of observers) observer.disconnect();
    observers = [];
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
      const plot = new uPlot(
        { width: target.clientWidth, height: CHART_HEIGHT, legend: { show: false }, scales: { x: { time: false } },
          series: [{ label: 'height' }, { label, stroke: '#1f5fbf', width: 1.5, spanGaps: false }] },
        [data.height, values],
        target,
      );
      const observer = new ResizeObserver(() => {
        if (target.clientWidth !== plot.width) plot.setSize({ width: target.clientWidth, height: CHART_HEIGHT });
      });
      observer.observe(target);
      observers.push(observer);
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
