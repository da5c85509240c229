/**
 * The explorer in a real headless Chromium, on a real `umbra simulator`: after a transfer, a contract install, a
 * failing call and a name registration (through the simulator wallets' RPC), it opens home, follows a block, a
 * transaction and the contract, searches by registered name and by txid, checks what each page shows, and saves
 * screenshots: into a temporary directory, or with UMBRA_DOCS_SCREENSHOTS=1 over the docs' own
 * (docs/images/explorer-*.png), so that a test run leaves the checkout as it was. Chromium is `UMBRA_CHROMIUM` or
 * /usr/bin/chromium; `make test` installs the Debian package when missing (scripts/ensure-chromium.sh), and without it
 * the test fails, saying so.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Page } from 'puppeteer-core';
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
const VIEWPORT = { width: 1200, height: 800 };

t.test('the explorer in headless Chromium', async (t) => {
  if (!existsSync(CHROMIUM))
    t.fail(
      `no Chromium at ${CHROMIUM}: install the Debian package (apt-get install -y chromium) or set UMBRA_CHROMIUM to a Chromium binary`,
    );
  if (!existsSync(CHROMIUM)) return;

  const sim = await startDocsSimulator(2);
  t.teardown(() => sim.cli.child.kill('SIGKILL'));
  const daemon = sim.daemonUrl;
  const wallet0 = sim.baseUrl(30000);
  const wallet1 = sim.baseUrl(30001);
  const bob = (await walletRpc(wallet1, 'GetAddress')).address as string;

  const transfer = (await walletRpc(wallet0, 'transfer', { destination: bob, amount: 12345, ringsize: 2 })).txid;
  await sim.settled();
  const install = await fetch(`${wallet0}/install_sc`, { method: 'POST', body: VAULT_CONTRACT });
  const scid = ((await install.json()) as { txid: string }).txid;
  await sim.settled();
  const failing = (
    await walletRpc(wallet0, 'scinvoke', {
      scid,
      sc_rpc: [{ name: 'entrypoint', datatype: 'S', value: 'Withdraw' }],
      ringsize: 2,
      force: true,
    })
  ).txid;
  await sim.settled();
  await walletRpc(wallet1, 'scinvoke', {
    scid: toHex(NAME_SERVICE_SCID),
    sc_rpc: [
      { name: 'entrypoint', datatype: 'S', value: 'Register' },
      { name: 'name', datatype: 'S', value: 'bob-explorer' },
    ],
    ringsize: 2,
  });
  await sim.settled();
  const top = await rpcCall(daemon, 'NODE.GetInfo');

  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  await page.setViewport(VIEWPORT);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  mkdirSync(SCREENSHOTS, { recursive: true });
  const shoot = (page: Page, name: string) =>
    page.screenshot({ path: join(SCREENSHOTS, `explorer-${name}.png`) as `${string}.png` });
  const text = (selector: string) =>
    // biome-ignore lint/performance/useDomNodeTextContent: the checks read the page as a reader sees it, laid out
    page.$eval(selector, (element) => (element as unknown as { innerText: string }).innerText);
  const explorer = `${daemon.replace(/\/json_rpc$/, '')}/explorer/`;

  await t.test('home: figures, the last blocks and three drawn charts', async (t) => {
    await page.goto(explorer, { waitUntil: 'networkidle0' });
    t.equal(await text('#height'), String(top.height));
    t.equal(await page.$$eval('#blocks tbody tr', (rows) => rows.length), Math.min(20, top.height + 1));
    await page.waitForSelector('#chart-difficulty canvas');
    t.equal(await page.$$eval('.chart canvas', (canvases) => canvases.length), 3, 'uPlot drew the three charts');
    await shoot(page, 'home');
  });

  await t.test('a block: follow the link of the block holding the transfer', async (t) => {
    const record = (await rpcCall(daemon, 'NODE.GetTransaction', { txs_hashes: [transfer] })).txs[0];
    await page.goto(explorer, { waitUntil: 'domcontentloaded' });
    await Promise.all([
      page.waitForNavigation(),
      page.click(`#blocks a[href="/explorer/block/${record.block_height}"]`),
    ]);
    t.match(await text('h1'), `Block ${record.block_height}`);
    t.equal(await page.$$eval('#miniblocks tbody tr', (rows) => rows.length), 10, 'ten miniblocks');
    t.match(await text('#transactions'), transfer);
    await shoot(page, 'block');
    await Promise.all([page.waitForNavigation(), page.click(`#transactions a[href="/explorer/tx/${transfer}"]`)]);
    t.match(await text('main'), 'transfer');
    t.match(await text('main'), bob, 'the ring, as addresses, holds the receiver');
    t.match(await text('main'), /Proof size \(bytes\)\s+\d{4,}/);
    await shoot(page, 'transaction');
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
    await shoot(page, 'contract');
  });

  await t.test('search by registered name: the address page', async (t) => {
    await page.goto(explorer, { waitUntil: 'domcontentloaded' });
    await page.type('input[name=q]', 'bob-explorer');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    t.equal(new URL(page.url()).pathname, `/explorer/address/${bob}`);
    t.match(await text('main'), /Registered\s+yes, in block \d+/);
    t.match(await text('main'), 'Encrypted balance');
    await shoot(page, 'address');
  });

  await t.test('home refreshes itself when a block arrives', async (t) => {
    await page.goto(explorer, { waitUntil: 'networkidle0' });
    const before = Number(await text('#height'));
    const mined = await rpcCall(daemon, 'SIMULATOR.Mine', { blocks: 1 });
    t.equal(mined.blids.length, 1);
    await page.waitForFunction(`document.getElementById('height')?.textContent === '${before + 1}'`, {
      timeout: 20_000,
    });
    t.pass(`the height went from ${before} to ${before + 1} without a reload`);
    await page.waitForSelector('#chart-difficulty canvas');
  });

  await t.test('with JavaScript off, pages still show everything but the charts', async (t) => {
    const plain = await browser.newPage();
    await plain.setJavaScriptEnabled(false);
    await plain.goto(`${explorer}contract/${scid}`);
    t.match(await plain.$eval('#activity', (table) => table.textContent), 'Withdraw');
    await plain.goto(explorer);
    const { height } = await rpcCall(daemon, 'NODE.GetInfo');
    t.equal(await plain.$$eval('#blocks tbody tr', (rows) => rows.length), Math.min(20, height + 1));
    t.equal(await plain.$$eval('.chart canvas', (canvases) => canvases.length), 0, 'no charts without a script');
    await plain.close();
  });

  await t.test('a bad search is a 404 page, not a stack trace', async (t) => {
    const response = await page.goto(`${explorer}search?q=nobody-at-all`);
    t.equal(response?.status(), 404);
    t.match(await text('h1'), 'Not found');
  });

  t.same(errors, [], 'no script errors on any page');
  for (const name of ['home', 'block', 'transaction', 'contract', 'address'])
    t.ok(readFileSync(join(SCREENSHOTS, `explorer-${name}.png`)).length > 1000, `explorer-${name}.png saved`);
});
