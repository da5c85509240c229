/**
 * The web wallet as a person meets it, in headless Chromium against `umbra wallet web` on `umbra simulator`:
 * `overview-ready`, ms from navigating to the page until the balances show (median of several loads);
 * `send-to-mined`, ms from the confirm click of a ring-16 transfer until the page shows it in a block (median);
 * `assets-gzip`, bytes of the JS and CSS a first load fetches, gzipped as the server sends them.
 * Chromium is `UMBRA_CHROMIUM` or /usr/bin/chromium.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Page } from 'puppeteer-core';
import { startServer, UMBRA } from './lib/rpc-load.js';
import { rpcCall, startSimulator } from './lib/simulator.js';
import { runBench, type BenchRow } from './harness.js';

const CHROMIUM = process.env['UMBRA_CHROMIUM'] || '/usr/bin/chromium';
const LOADS = 7;
const SENDS = 5;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]!);
};

// 17 simulator wallets and the benchmark's own: accounts enough for a ring of 16.
const simulator = await startSimulator(/daemon RPC http:\/\/127\.0\.0\.1:(\d+)\/json_rpc[\s\S]*simulator ready/, {
  flags: ['--wallets', '17'],
});
const daemon = `http://127.0.0.1:${simulator.port}`;
const walletUrl = (i: number): string =>
  new RegExp(`wallet ${i}: \\S+ (http://127\\.0\\.0\\.1:\\d+)/json_rpc`).exec(simulator.output())![1]!;
const dir = mkdtempSync(join(tmpdir(), 'umbra-bench-web-wallet-'));
const file = join(dir, 'wallet.json');
const passwordFile = join(dir, 'password');
writeFileSync(passwordFile, 'bench\n');
const created = execFileSync(
  UMBRA,
  ['wallet', 'create', '--wallet-file', file, '--password-file', passwordFile, '--network', 'simulator'],
  {
    encoding: 'utf8',
  },
);
const address = /address:\s+(\S+)/.exec(created)![1]!;
const web = await startServer(
  [
    UMBRA,
    'wallet',
    'web',
    '--wallet-file',
    file,
    '--password-file',
    passwordFile,
    '--network',
    'simulator',
    '--daemon-address',
    daemon,
    '--web-bind',
    '127.0.0.1:0',
    '--log-level',
    'info',
  ],
  /the account is registered on chain[\s\S]*Web wallet: open http:\/\/127\.0\.0\.1:(\d+)|Web wallet: open http:\/\/127\.0\.0\.1:(\d+)[\s\S]*the account is registered on chain/,
);
const link = /Web wallet: open (\S+)/.exec(web.output())![1]!;
const origin = new URL(link).origin;
const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const rows: BenchRow[] = [];

/** Bytes on the wire of one GET of `url` accepting gzip (the body as sent, not decoded). */
const wireBytes = (url: string): Promise<number> =>
  new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': 'gzip' } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve(bytes));
    }).on('error', reject);
  });

/** Bytes of the scripts and style sheets the page loaded, as the server sends them gzipped. */
async function assetBytes(loaded: string[]): Promise<number> {
  let total = 0;
  for (const url of loaded) total += await wireBytes(url);
  return total;
}

/** A ring-16 transfer of a small amount to `to`, through the send screen: ms from the confirm click to the block. */
async function sendToMined(page: Page, to: string): Promise<number> {
  // A fresh page each time (a change of the hash alone would keep the last transfer's form).
  await page.goto(`${origin}/`);
  await page.waitForSelector('a[href="#send"]');
  await page.click('a[href="#send"]');
  await page.waitForSelector('#send-destination');
  await page.type('#send-destination', to);
  await page.type('#send-amount', '0.1');
  await page.select('#send-ring', '16');
  await page.click('form.send button[type="submit"]');
  await page.waitForSelector('dialog[open] button.confirm');
  const start = performance.now();
  await page.click('dialog button.confirm');
  await page.waitForSelector('.job[data-step="mined"]', { timeout: 60_000 });
  return performance.now() - start;
}

try {
  await rpcCall(walletUrl(0), 'transfer', { destination: address, amount: 500_000, ringsize: 2 });
  const page = await browser.newPage();
  const loaded: string[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type === 'script' || type === 'stylesheet') loaded.push(response.url());
  });
  await page.goto(link);
  await page.waitForFunction(`document.querySelector('.balances')?.innerText.includes('5.00000 UMB')`, {
    timeout: 60_000,
  });
  rows.push({ case: 'assets-gzip', impl: 'web-wallet', unit: 'bytes', value: await assetBytes(loaded) });
  const loads: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    const start = performance.now();
    await page.goto(`${origin}/`);
    await page.waitForSelector('.balance');
    loads.push(performance.now() - start);
  }
  rows.push({ case: 'overview-ready', impl: 'web-wallet', unit: 'ms', value: median(loads) });
  const bob = (await rpcCall(walletUrl(1), 'GetAddress')).address as string;
  const sends: number[] = [];
  for (let i = 0; i < SENDS; i++) sends.push(await sendToMined(page, bob));
  rows.push({ case: 'send-to-mined', impl: 'web-wallet', unit: 'ms', value: median(sends) });
  runBench('web-wallet', rows);
} finally {
  await browser.close();
  web.child.kill('SIGINT');
  simulator.child.kill('SIGINT');
}
