/**
 * The explorer in a real headless Chromium, on a real `umbra simulator` (mining only when the test asks): after a
 * transfer, a contract install, a failing call and a name registration (through the simulator wallets' RPC), with a
 * transfer left waiting in the pool, every page — home, block, transaction (a transfer and a contract call), contract,
 * address, pool, a search's answer and a failed search's — is opened at a phone's width (390×844) and a desktop's
 * (1280×900). On each, at both widths: the document is no wider than the window, ids are shortened in the middle with
 * the whole value in their title and never wrap into a column, amounts are in coins with their atomic units in their
 * title, and tables are cards on the phone and rows on the desktop. Then what each page shows, the copy buttons (by
 * keyboard), charts that follow the window's width, the live refresh, pages without JavaScript and a failed search.
 * Screenshots go to a temporary directory, or with UMBRA_DOCS_SCREENSHOTS=1 over the docs' own
 * (docs/images/explorer-*.png, -phone for 390 px), so that a test run leaves the checkout as it was. Chromium is
 * `UMBRA_CHROMIUM` or /usr/bin/chromium; `make test` installs the Debian package when missing
 * (scripts/ensure-chromium.sh), and without it the test fails, saying so. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import t from 'tap';
import { NAME_SERVICE_SCID } from '../../../protocol/name-service.js';
import { toHex } from '../../../protocol/bytes.js';
import { rpcCall } from '../../helpers/app.js';
import { REPO_ROOT } from '../../helpers/cli.js';
import { VAULT_CONTRACT } from '../../helpers/vault-contract.js';
import { walletRpc } from '../../helpers/wallet-app.js';
import { startDocsSimulator } from '../../docs/simulator.js';

const CHROMIUM = process.env['UMBRA_CHROMIUM'] || '/usr/bin/chromium';
const SCREENSHOTS = process.env['UMBRA_DOCS_SCREENSHOTS']
  ? join(REPO_ROOT, 'docs', 'images')
  : mkdtempSync(join(tmpdir(), 'umbra-explorer-screenshots-'));
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** The pages the docs show, at both widths. */
const DOCS_PAGES = ['home', 'block', 'transaction', 'contract', 'address'];
/** The pages that show amounts. */
const WITH_AMOUNTS = ['home', 'block', 'transaction', 'call', 'pool'];

/** What the layout checks find on a page at the window's width. */
interface Layout {
  documentWidth: number;
  windowWidth: number;
  /** Shortened ids whose text is not the first and last 8 characters of their title. */
  badIds: string[];
  shortIds: number;
  /** Ids laid out on more than three lines (a column of a few characters each). */
  wrappedIds: string[];
  /** Amounts not written as coins with their atomic units in the title. */
  badAmounts: string[];
  amounts: number;
  /** `display` of the first row of each table. */
  rowDisplays: string[];
}

/** Run in the page (as source: the test is compiled without the DOM's types), it measures what Layout holds. */
const MEASURE_LAYOUT = `(() => {
  const ids = [...document.querySelectorAll('.id:not(.whole) .hash')];
  // Whole when short; else a start of it, an ellipsis and its last 8 characters, 21 characters at most.
  const isShortOf = (text, value) =>
    text === value ||
    (text.length <= 21 && value.startsWith(text.split('…')[0]) && text.endsWith('…' + value.slice(-8)));
  const amounts = [...document.querySelectorAll('.amount')];
  return {
    documentWidth: document.documentElement.scrollWidth,
    windowWidth: window.innerWidth,
    badIds: ids.filter((id) => !isShortOf(id.textContent, id.getAttribute('title') ?? '')).map((id) => id.outerHTML),
    shortIds: ids.length,
    wrappedIds: [...document.querySelectorAll('.hash')]
      .filter((id) => id.getClientRects().length > 3)
      .map((id) => id.textContent),
    badAmounts: amounts
      .filter(
        (amount) =>
          !/^\\d+\\.\\d{5}( UMB)?$/.test(amount.textContent) ||
          !/^\\d+ atomic units$/.test(amount.getAttribute('title') ?? ''),
      )
      .map((amount) => amount.outerHTML),
    amounts: amounts.length,
    rowDisplays: [...document.querySelectorAll('table.cards tbody tr:first-child')].map(
      (row) => getComputedStyle(row).display,
    ),
  };
})()`;
const FITS = 'document.documentElement.scrollWidth <= window.innerWidth';
const CHART_WIDTH = "document.querySelector('#chart-difficulty canvas').getBoundingClientRect().width";
const FOCUSED_COPY = "document.activeElement?.matches('#transactions button.copy') === true";

t.test('the explorer in headless Chromium', async (t) => {
  if (!existsSync(CHROMIUM))
    t.fail(
      `no Chromium at ${CHROMIUM}: install the Debian package (apt-get install -y chromium) or set UMBRA_CHROMIUM to a Chromium binary`,
    );
  if (!existsSync(CHROMIUM)) return;

  const sim = await startDocsSimulator(2, ['--noautomine']);
  t.teardown(() => sim.cli.child.kill('SIGKILL'));
  const daemon = sim.daemonUrl;
  const wallet0 = sim.baseUrl(30000);
  const wallet1 = sim.baseUrl(30001);
  const alice = (await walletRpc(wallet0, 'GetAddress')).address as string;
  const bob = (await walletRpc(wallet1, 'GetAddress')).address as string;
  /** Mines a block with what waits, and waits until both wallets have seen it. */
  const mineBlock = async () => {
    const [block] = (await rpcCall(daemon, 'SIMULATOR.Mine', { blocks: 1 })).blids;
    const { height } = await rpcCall(daemon, 'NODE.GetBlockHeaderByHash', { hash: block }).then((a) => a.block_header);
    for (const wallet of [wallet0, wallet1])
      while ((await walletRpc(wallet, 'GetHeight')).height < height)
        await new Promise((resolve) => setTimeout(resolve, 20));
  };

  const transfer = (await walletRpc(wallet0, 'transfer', { destination: bob, amount: 12345, ringsize: 2 })).txid;
  await mineBlock();
  const install = await fetch(`${wallet0}/install_sc`, { method: 'POST', body: VAULT_CONTRACT });
  const scid = ((await install.json()) as { txid: string }).txid;
  await mineBlock();
  const failing = (
    await walletRpc(wallet0, 'scinvoke', {
      scid,
      sc_rpc: [{ name: 'entrypoint', datatype: 'S', value: 'Withdraw' }],
      ringsize: 2,
      force: true,
    })
  ).txid;
  await mineBlock();
  const register = (
    await walletRpc(wallet1, 'scinvoke', {
      scid: toHex(NAME_SERVICE_SCID),
      sc_rpc: [
        { name: 'entrypoint', datatype: 'S', value: 'Register' },
        { name: 'name', datatype: 'S', value: 'bob-explorer' },
      ],
      ringsize: 2,
    })
  ).txid;
  await mineBlock();
  const waiting = (await walletRpc(wallet1, 'transfer', { destination: alice, amount: 500, ringsize: 2 })).txid;
  const top = await rpcCall(daemon, 'NODE.GetInfo');
  const transferBlock = (await rpcCall(daemon, 'NODE.GetTransaction', { txs_hashes: [transfer] })).txs[0]
    .block_height as number;

  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  t.teardown(() => browser.close());
  const site = daemon.replace(/\/json_rpc$/, '');
  const explorer = `${site}/explorer/`;
  await browser
    .defaultBrowserContext()
    .setPermission(
      site,
      { permission: { name: 'clipboard-read' }, state: 'granted' },
      { permission: { name: 'clipboard-write' }, state: 'granted' },
    );
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  mkdirSync(SCREENSHOTS, { recursive: true });
  const shoot = (name: string) =>
    page.screenshot({ path: join(SCREENSHOTS, `explorer-${name}.png`) as `${string}.png` });
  const text = (selector: string) =>
    // biome-ignore lint/performance/useDomNodeTextContent: the checks read the page as a reader sees it, laid out
    page.$eval(selector, (element) => (element as unknown as { innerText: string }).innerText);

  const pages: [name: string, path: string][] = [
    ['home', ''],
    ['block', `block/${transferBlock}`],
    ['transaction', `tx/${transfer}`],
    ['call', `tx/${failing}`],
    ['contract', `contract/${scid}`],
    ['address', `address/${bob}`],
    ['pool', 'pool'],
    ['search', 'search?q=bob-explorer'],
    ['not-found', 'search?q=nobody-at-all'],
  ];
  for (const [viewport, suffix] of [
    [PHONE, '-phone'],
    [DESKTOP, ''],
  ] as const)
    await t.test(`every page at ${viewport.width}×${viewport.height}`, async (t) => {
      await page.setViewport(viewport);
      for (const [name, path] of pages) {
        await page.goto(`${explorer}${path}`, { waitUntil: 'networkidle0' });
        const layout = (await page.evaluate(MEASURE_LAYOUT)) as Layout;
        t.ok(
          layout.documentWidth <= layout.windowWidth,
          `${name}: the document (${layout.documentWidth} px) fits the window (${layout.windowWidth} px)`,
        );
        t.ok(layout.shortIds > 0 || name === 'not-found', `${name}: ${layout.shortIds} shortened ids`);
        t.same(layout.badIds, [], `${name}: ids shortened in the middle, whole in their title`);
        t.same(layout.wrappedIds, [], `${name}: no id wraps into a column`);
        t.ok(layout.amounts > 0 || !WITH_AMOUNTS.includes(name), `${name}: ${layout.amounts} amounts`);
        t.same(layout.badAmounts, [], `${name}: amounts in coins, atomic units in their title`);
        const rows = viewport === PHONE ? 'block' : 'table-row';
        t.ok(
          layout.rowDisplays.every((display) => display === rows),
          `${name}: ${layout.rowDisplays.length} tables as ${viewport === PHONE ? 'cards' : 'rows'}`,
        );
        if (DOCS_PAGES.includes(name)) await shoot(`${name}${suffix}`);
      }
    });

  await t.test('home: figures without a hash rate on the simulator, the last blocks, three charts', async (t) => {
    await page.setViewport(DESKTOP);
    await page.goto(explorer, { waitUntil: 'networkidle0' });
    t.equal(await text('#height'), String(top.height));
    t.notMatch(await text('#summary'), /hash rate/i, 'the simulator mines on demand: no hash rate');
    t.match(await text('#summary'), /Supply\s+\d+\.\d{5} UMB/);
    t.equal(await page.$$eval('#blocks tbody tr', (rows) => rows.length), Math.min(20, top.height + 1));
    await page.waitForSelector('#chart-difficulty canvas');
    t.equal(await page.$$eval('.chart canvas', (canvases) => canvases.length), 3, 'uPlot drew the three charts');
  });

  await t.test('charts follow the window: narrower on a phone, wider again on a desktop', async (t) => {
    const chartWidth = async () => (await page.evaluate(CHART_WIDTH)) as number;
    const wide = await chartWidth();
    await page.setViewport(PHONE);
    await page.waitForFunction(`${CHART_WIDTH} < ${PHONE.width - 20}`);
    const narrow = await chartWidth();
    t.ok(narrow < wide && narrow <= PHONE.width - 20, `${wide} px on the desktop, ${narrow} px on the phone`);
    t.ok(await page.evaluate(FITS), 'the page still fits');
    await page.setViewport(DESKTOP);
    await page.waitForFunction(`${CHART_WIDTH} >= ${wide}`);
    t.pass('back to its width on the desktop');
  });

  await t.test('a copy button, reached and pressed by keyboard, copies the whole id', async (t) => {
    await page.setViewport(PHONE);
    await page.goto(`${explorer}block/${transferBlock}`, { waitUntil: 'networkidle0' });
    const label = await page.$eval('#transactions button.copy', (button) => button.getAttribute('aria-label'));
    t.equal(label, 'Copy the txid', 'the button says what it copies');
    // Tab from the search box until a copy button of the transactions has the focus.
    await page.focus('input[name=q]');
    for (let presses = 0; presses < 60; presses++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(FOCUSED_COPY)) break;
    }
    t.ok(await page.evaluate(FOCUSED_COPY), 'reached');
    await page.keyboard.press('Enter');
    await page.waitForFunction("document.querySelector('[role=status]')?.textContent === 'Copied the txid'");
    t.equal(await page.evaluate('navigator.clipboard.readText()'), transfer, 'the whole txid is on the clipboard');
    t.match(await page.$eval('#transactions button.copy', (button) => button.className), 'copied');
  });

  await t.test('a block: its transfer, reward and fee in coins, ten miniblocks', async (t) => {
    await page.setViewport(DESKTOP);
    await page.goto(explorer, { waitUntil: 'domcontentloaded' });
    await Promise.all([page.waitForNavigation(), page.click(`#blocks a[href="/explorer/block/${transferBlock}"]`)]);
    t.match(await text('h1'), `Block ${transferBlock}`);
    t.equal(await page.$$eval('#miniblocks tbody tr', (rows) => rows.length), 10, 'ten miniblocks');
    t.match(await text('main'), /Reward\s+\d+\.\d{5} UMB/);
    t.ok(await page.$(`#transactions a[title="${transfer}"]`), 'the transfer, its txid whole in the title');
    await Promise.all([page.waitForNavigation(), page.click(`#transactions a[href="/explorer/tx/${transfer}"]`)]);
    t.match(await text('main'), 'transfer');
    t.match(await text('main'), transfer, 'the page shows its own txid whole');
    t.ok(await page.$(`.ring a[title="${bob}"]`), 'the ring, as addresses, holds the receiver');
    t.match(await text('main'), /Fee\s+0\.\d{5} UMB/);
    t.match(await text('main'), /Proof size \(bytes\)\s+\d{4,}/);
  });

  await t.test('search by txid: the failing call, its outcome, then its contract', async (t) => {
    await page.type('input[name=q]', failing);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    t.equal(new URL(page.url()).pathname, `/explorer/tx/${failing}`);
    t.match(await text('.outcome-failed'), 'failed at line 20: PANIC');
    await Promise.all([page.waitForNavigation(), page.click(`a[href="/explorer/contract/${scid}"]`)]);
    t.match(await text('pre.code'), 'Function Withdraw() Uint64');
    t.match(await text('#variables'), '"someone else"');
    t.match(await text('#activity'), /call Withdraw\s+failed: PANIC/);
    t.match(await text('#activity'), /install\s+committed/);
  });

  await t.test('search by registered name: the address page and what the chain shows of it', async (t) => {
    await page.goto(explorer, { waitUntil: 'domcontentloaded' });
    await page.type('input[name=q]', 'bob-explorer');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    t.equal(new URL(page.url()).pathname, `/explorer/address/${bob}`);
    t.match(await text('main'), /Registered\s+yes, in block \d+/);
    t.equal(await text('#names'), 'bob-explorer', 'the name it owns');
    t.match(await text('main'), 'Encrypted balance');
    t.ok(await page.$(`#rings a[title="${transfer}"]`), 'in the ring of the transfer it received');
    t.ok(await page.$(`#signed-calls a[title="${register}"]`), 'the registration call it signed with a ring of 2');
    t.match(await text('#signed-calls'), /call Register\s+committed/);
  });

  await t.test('the pool lists the waiting transfer; the home page refreshes itself when it is mined', async (t) => {
    await page.goto(`${explorer}pool`, { waitUntil: 'networkidle0' });
    t.match(await text('main'), '1 transaction waiting');
    t.ok(await page.$(`#pool a[title="${waiting}"]`));
    await page.goto(explorer, { waitUntil: 'networkidle0' });
    const before = Number(await text('#height'));
    await mineBlock();
    await page.waitForFunction(`document.getElementById('height')?.textContent === '${before + 1}'`, {
      timeout: 20_000,
    });
    t.pass(`the height went from ${before} to ${before + 1} without a reload`);
    await page.waitForSelector('#chart-difficulty canvas');
  });

  await t.test('with JavaScript off, pages show everything but the charts and the copy buttons', async (t) => {
    const plain = await browser.newPage();
    await plain.setJavaScriptEnabled(false);
    await plain.setViewport(PHONE);
    await plain.goto(`${explorer}contract/${scid}`);
    t.match(await plain.$eval('#activity', (table) => table.textContent), 'Withdraw');
    t.equal(
      await plain.evaluate("getComputedStyle(document.querySelector('button.copy')).display"),
      'none',
      'a copy button that could not work is not shown',
    );
    await plain.goto(explorer);
    const { height } = await rpcCall(daemon, 'NODE.GetInfo');
    t.equal(await plain.$$eval('#blocks tbody tr', (rows) => rows.length), Math.min(20, height + 1));
    t.equal(await plain.$$eval('.chart canvas', (canvases) => canvases.length), 0, 'no charts without a script');
    t.ok(await plain.evaluate(FITS), 'it fits the phone');
    await plain.close();
  });

  await t.test('a bad search is a 404 page, not a stack trace', async (t) => {
    const response = await page.goto(`${explorer}search?q=nobody-at-all`);
    t.equal(response?.status(), 404);
    t.match(await text('h1'), 'Not found');
  });

  t.same(errors, [], 'no script errors on any page');
  for (const name of DOCS_PAGES)
    for (const suffix of ['', '-phone'])
      t.ok(
        readFileSync(join(SCREENSHOTS, `explorer-${name}${suffix}.png`)).length > 1000,
        `explorer-${name}${suffix}.png saved`,
      );
});
