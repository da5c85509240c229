/**
 * The web wallet in a real headless Chromium, served by `umbra wallet web` against a real `umbra simulator`: a
 * wallet created in the page (its words shown once, three picked back) receives from a simulator wallet and the
 * transfer appears without a reload; a ring-16 transfer is confirmed and followed to its block; a token is followed,
 * shown by its symbol, labelled and sent from the send page; a contract call whose trial fails is refused before
 * paying; the lock takes a wrong password and opens with the right one; the daemon is changed on the settings page
 * (one that cannot be reached is refused, the old one stays); every screen fits 390×844 without horizontal overflow
 * and 1280×900; requests without the session, without its token or from another origin are refused, and the one-time
 * link works once. Screenshots go to a temporary directory, or with UMBRA_DOCS_SCREENSHOTS=1 over the docs' own
 * (docs/images/web-wallet-*.png, -phone for 390 px). Chromium is `UMBRA_CHROMIUM` or /usr/bin/chromium.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import t from 'tap';
import { launchChromium } from '../../helpers/chromium.js';
import { REPO_ROOT, startCli, walletFlags } from '../../helpers/cli.js';
import { VAULT_CONTRACT } from '../../helpers/vault-contract.js';
import { startRecordingProxy } from '../../helpers/recording-proxy.js';
import { walletRpc } from '../../helpers/wallet-app.js';
import { startDocsSimulator } from '../../docs/simulator.js';
import { NAMED_TOKEN_CONTRACT, NAMED_TOKEN_SYMBOL } from './named-token.js';

const SCREENSHOTS = process.env['UMBRA_DOCS_SCREENSHOTS']
  ? join(REPO_ROOT, 'docs', 'images')
  : mkdtempSync(join(tmpdir(), 'umbra-web-wallet-screenshots-'));
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const SCREENS = ['overview', 'receive', 'send', 'history', 'contracts', 'approvals', 'settings'];
const FITS = 'document.documentElement.scrollWidth <= window.innerWidth';
/** Run in the page (the test is compiled without the DOM's types). */
const innerText = (selector: string): string => `document.querySelector(${JSON.stringify(selector)})?.innerText ?? ''`;

/** Types into a field, as a person would (its old text replaced). */
async function typeInto(page: Page, selector: string, text: string): Promise<void> {
  await page.click(selector, { count: 3 });
  await page.keyboard.press('Backspace');
  await page.type(selector, text);
}

t.test('the web wallet in headless Chromium', async (t) => {
  const browser = await launchChromium(t);
  if (!browser) return;

  // 17 simulator wallets and this one: registered accounts enough for a ring of 16.
  const sim = await startDocsSimulator(17);
  t.teardown(() => sim.cli.child.kill('SIGKILL'));
  const wallet0 = sim.baseUrl(30000);
  const bob = (await walletRpc(sim.baseUrl(30001), 'GetAddress')).address as string;
  const dir = mkdtempSync(join(tmpdir(), 'umbra-web-wallet-'));
  const file = join(dir, 'wallet.json');
  const passwordFile = join(dir, 'password');
  writeFileSync(passwordFile, 'correct horse\n');
  const daemon = new URL(sim.daemonUrl).origin;
  const flags = [...walletFlags(file, passwordFile, daemon), '--network', 'simulator'];
  // No wallet file yet: the page creates it.
  const web = startCli(['wallet', 'web', ...flags, '--web-bind', '127.0.0.1:0']);
  t.teardown(() => web.child.kill('SIGKILL'));
  const [, link] = await web.waitFor(/Web wallet: open (http:\/\/\S+) to create or restore the wallet/, 60_000);
  const origin = new URL(link!).origin;
  let address = '';

  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  mkdirSync(SCREENSHOTS, { recursive: true });
  const shoot = (name: string) =>
    page.screenshot({ path: join(SCREENSHOTS, `web-wallet-${name}.png`) as `${string}.png`, fullPage: true });
  await page.setViewport(DESKTOP);

  await t.test('the one-time link opens a session, once', async (t) => {
    await page.goto(link!);
    t.equal(new URL(page.url()).search, '', 'the token leaves the address bar');
    const again = await fetch(link!, { redirect: 'manual' });
    t.equal(again.status, 403, 'a used link is refused');
  });

  await t.test('a new wallet: its words shown once, three picked back, a password', async (t) => {
    await page.waitForSelector('main.setup');
    await page.click('main.setup fieldset.choice button');
    await page.click('main.setup section button, main.setup > button');
    await page.waitForSelector('ol.seed li');
    const words = (await page.evaluate(
      `[...document.querySelectorAll('ol.seed li')].map((li) => li.textContent)`,
    )) as string[];
    t.equal(words.length, 24);
    await shoot('setup-words');
    await page.click('ol.seed + button');
    await page.waitForSelector('fieldset.quiz');
    const positions = (await page.evaluate(
      `[...document.querySelectorAll('fieldset.quiz legend')].map((legend) => Number(legend.textContent.replace('Word ', '')) - 1)`,
    )) as number[];
    t.equal(positions.length, 3);
    for (const [i, position] of positions.entries()) {
      const buttons = await page.$$(`fieldset.quiz:nth-of-type(${i + 1}) button`);
      for (const button of buttons)
        if ((await button.evaluate((b) => b.textContent)) === words[position]) await button.click();
    }
    await page.waitForSelector('#setup-password');
    await page.type('#setup-password', 'correct horse');
    await page.type('#setup-repeat', 'correct horse');
    await page.click('form.password button[type="submit"]');
    await page.waitForSelector('#screen-overview');
    [, address] = (await web.waitFor(/Umbra wallet (\S+) on simulator/, 30_000)) as unknown as [string, string];
    await web.waitFor(/the account is registered on chain/, 30_000);
    await page.waitForSelector('#screen-overview .balance');
  });

  await t.test('a transfer from a simulator wallet appears without a reload', async (t) => {
    await page.evaluate('window.notReloaded = true');
    await walletRpc(wallet0, 'transfer', { destination: address, amount: 500000, ringsize: 2 });
    await page.waitForFunction(`${innerText('.balances')}.includes('5.00000 UMB')`, { timeout: 30_000 });
    t.equal(await page.evaluate('window.notReloaded'), true, 'the page was not reloaded');
    await page.click('a[href="#history"]');
    await page.waitForSelector('.entry.incoming');
    t.match(await page.evaluate(innerText('.entry.incoming summary')), /Received\s*\+5\.00000 UMB/);
  });

  await t.test('a ring-16 transfer, confirmed and followed to its block', async (t) => {
    await page.click('a[href="#send"]');
    await page.waitForSelector('#send-destination');
    await page.type('#send-destination', 'umbt1-not-an-address');
    await page.waitForFunction(`${innerText('#destination-check')}.length > 0`);
    t.match(await page.evaluate(innerText('#destination-check .error')), /neither an address/);
    await typeInto(page, '#send-destination', bob);
    await page.waitForFunction(`${innerText('#destination-check .ok')}.startsWith('Goes to')`);
    await page.type('#send-amount', '1.25');
    await page.select('#send-ring', '16');
    await page.click('form.send button[type="submit"]');
    await page.waitForSelector('dialog[open]');
    t.equal(await page.evaluate(innerText('.preview-ring')), '16');
    t.match(await page.evaluate(innerText('.preview-fee')), /^\d+\.\d{5} UMB$/);
    await shoot('send-confirm');
    await page.click('dialog button.confirm');
    await page.waitForSelector('.job[data-step="mined"]', { timeout: 30_000 });
    t.match(await page.evaluate(innerText('.job')), /In block \d+/);
  });

  await t.test("the sent transfer's payment proof, copied from the history and checked", async (t) => {
    await page.click('a[href="#history"]');
    await page.waitForSelector('.entry.outgoing');
    const { txid, proof } = (await page.evaluate(`(() => {
      const entry = document.querySelector('.entry.outgoing');
      const ids = [...entry.querySelectorAll('code.hash')].map((code) => code.textContent);
      return { txid: entry.dataset.txid, proof: ids.find((id) => id.startsWith('umbproof1')) };
    })()`)) as { txid: string; proof: string };
    t.match(proof, /^umbproof1/);
    await page.type('#proof-txid', txid);
    await page.type('#proof-text', proof);
    await page.click('form.proof-check button[type="submit"]');
    await page.waitForSelector('.proof-answer');
    t.match(
      await page.evaluate(innerText('.proof-answer')),
      new RegExp(`The proof fits: ${bob} received 1\\.25000 UMB`),
    );
    await typeInto(page, '#proof-txid', txid.replace(/^./, txid[0] === '0' ? '1' : '0'));
    await page.click('form.proof-check button[type="submit"]');
    await page.waitForFunction(`${innerText('.proof-answer')}.startsWith('The proof does not fit')`);
    t.pass('a proof for another transaction does not fit');
  });

  await t.test('a token shown by its name, labelled, and sent from the send page', async (t) => {
    const install = await fetch(`${wallet0}/install_sc`, { method: 'POST', body: NAMED_TOKEN_CONTRACT });
    const scid = ((await install.json()) as { txid: string }).txid;
    await sim.settled();
    await walletRpc(wallet0, 'transfer', { transfers: [{ destination: address, amount: 300000, scid }], ringsize: 2 });
    await page.click('a[href="#overview"]');
    // The private mode reads no ring the wallet is not in: a token received is followed by its SCID.
    await page.waitForSelector('details.tokens summary');
    await page.click('details.tokens summary');
    await page.type('#token-scid', scid);
    await page.click('form.asset-token button[type="submit"]');
    const token = `.balance[data-scid="${scid}"]`;
    await page.waitForFunction(`${innerText(token)}.includes('3.00000')`, { timeout: 30_000 });
    t.match(await page.evaluate(innerText(`${token} .asset`)), new RegExp(`^${NAMED_TOKEN_SYMBOL}$`), 'by its symbol');
    t.match(await page.evaluate(innerText('.balance:first-child .asset')), /^UMB$/, 'the native coin first');
    await page.type('#token-scid', scid);
    await page.type('#token-label', 'My X');
    await page.click('form.asset-token button[type="submit"]');
    await page.waitForFunction(`${innerText(`${token} .asset`)}.startsWith('My X')`);
    t.pass('a label of its own');

    await page.click('a[href="#send"]');
    await page.waitForSelector(`#send-asset option[value="${scid}"]`);
    await page.select('#send-asset', scid);
    await page.type('#send-destination', bob);
    await page.waitForFunction(`${innerText('#destination-check .ok')}.startsWith('Goes to')`);
    await page.click('form.send .with-button button');
    await page.waitForFunction(`document.querySelector('#send-amount').value === '3.00000'`);
    await page.select('#send-ring', '2');
    await page.click('form.send button[type="submit"]');
    await page.waitForSelector('dialog[open]');
    t.equal(await page.evaluate(innerText('.preview-amount')), '3.00000 My X');
    t.match(await page.evaluate(innerText('.preview-fee')), /^\d+\.\d{5} UMB$/, 'the fee in the native coin');
    await page.click('dialog button.confirm');
    await page.waitForSelector('.job[data-step="mined"]', { timeout: 30_000 });
    const received = (await walletRpc(sim.baseUrl(30001), 'GetBalance', { scid })) as { balance: number };
    t.equal(received.balance, 300000, 'the receiver holds the token');
    await page.click('a[href="#history"]');
    await page.waitForFunction(`${innerText('#history-asset')}.includes('My X')`);
    t.match(await page.evaluate(innerText('#history-asset')), /UMB[\s\S]*My X/, 'the filter names the token');
  });

  await t.test('a contract call that would fail is refused before paying', async (t) => {
    const install = await fetch(`${wallet0}/install_sc`, { method: 'POST', body: VAULT_CONTRACT });
    const scid = ((await install.json()) as { txid: string }).txid;
    await sim.settled();
    // The wallet's history caught up with the top (the token sent above included), so what follows is this test's.
    await page.waitForFunction(
      `fetch('/api/overview').then((r) => r.json()).then((o) => o.synced > 0 && o.synced >= o.topoheight)`,
      { polling: 200, timeout: 30_000 },
    );
    const before = (await page.evaluate(`fetch('/api/history').then((r) => r.json())`)) as unknown[];
    await page.click('a[href="#contracts"]');
    await page.type('#contract-scid', scid);
    await page.click('form.contract-lookup button[type="submit"]');
    await page.waitForSelector('#call-entrypoint');
    await page.select('#call-entrypoint', 'Withdraw');
    await page.click('form.call button[type="submit"]');
    await page.waitForSelector('.trial');
    t.match(await page.evaluate(innerText('.trial')), /Refused before paying: it would fail/);
    t.equal(await page.evaluate(`document.querySelector('form.call button[type="button"]').disabled`), true);
    const forced = (await page.evaluate(`fetch('/api/contract/call', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'x-umbra-session': document.querySelector('meta[name="umbra-session"]').content,
      },
      body: JSON.stringify({ scid: ${JSON.stringify(scid)}, entrypoint: 'Withdraw', args: {}, deposit: '' }),
    }).then(async (r) => ({ status: r.status, body: await r.json() }))`)) as {
      status: number;
      body: { error: string };
    };
    t.equal(forced.status, 400);
    t.match(forced.body.error, /would fail.*nothing was sent/);
    const after = (await page.evaluate(`fetch('/api/history').then((r) => r.json())`)) as unknown[];
    t.equal(after.length, before.length, 'nothing was sent');
  });

  await t.test('lock, a wrong password, unlock', async (t) => {
    await page.click('header.top button');
    await page.waitForSelector('#unlock-password');
    t.equal((await fetch(`${origin}/api/overview`)).status, 401, 'no session, no overview');
    await page.type('#unlock-password', 'wrong horse');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.lock .error');
    t.equal(await page.evaluate(innerText('.lock .error')), 'wrong password');
    await shoot('locked');
    await typeInto(page, '#unlock-password', 'correct horse');
    await page.keyboard.press('Enter');
    await page.waitForSelector('header.top');
    t.pass('unlocked');
  });

  await t.test('requests without the session token or from another origin are refused', async (t) => {
    const [cookie] = await page.cookies();
    const session = (await page.evaluate(`document.querySelector('meta[name="umbra-session"]').content`)) as string;
    const lock = (headers: Record<string, string>) =>
      fetch(`${origin}/api/lock`, {
        method: 'POST',
        headers: { Cookie: `${cookie!.name}=${cookie!.value}`, ...headers },
      });
    t.equal((await lock({ Origin: origin })).status, 403, 'no session token');
    t.equal((await lock({ Origin: 'http://evil.example', 'x-umbra-session': session })).status, 403, 'another origin');
    t.equal((await lock({ 'x-umbra-session': session })).status, 403, 'no origin');
    t.equal((await fetch(`${origin}/api/lock`, { method: 'POST' })).status, 401, 'no session');
    // fetch sets Host itself: node:http sends the one a rebound DNS name would carry.
    const rebound = await new Promise<number>((resolve, reject) =>
      get(
        `${origin}/api/state`,
        { headers: { Host: 'evil.example', Cookie: `${cookie!.name}=${cookie!.value}` } },
        (r) => resolve(r.resume().statusCode!),
      ).on('error', reject),
    );
    t.equal(rebound, 403, 'a Host other than loopback (a rebound DNS name) is refused');
    t.equal(await page.evaluate(`fetch('/api/state').then((r) => r.json()).then((s) => s.locked)`), false);
    const page2 = await browser.newPage();
    const headers = await page2.goto(`${origin}/`).then((r) => r!.headers());
    t.match(headers['content-security-policy'], /default-src 'none'; script-src 'self'/);
    await page2.close();
  });

  await t.test('the daemon changed on the settings page: a refused one says why, a checked one is used', async (t) => {
    const proxy = await startRecordingProxy(daemon);
    t.teardown(() => proxy.close());
    await page.click('a[href="#settings"]');
    await page.waitForSelector('#settings-daemon');
    const before = (await page.evaluate(`document.querySelector('#settings-daemon').value`)) as string;
    await typeInto(page, '#settings-daemon', '127.0.0.1:9');
    await page.click('form.daemon button[type="submit"]');
    await page.waitForSelector('form.daemon .error');
    t.match(await page.evaluate(innerText('form.daemon .error')), /cannot reach the daemon.*stays on/);
    await typeInto(page, '#settings-daemon', proxy.url);
    await page.click('form.daemon button[type="submit"]');
    await page.waitForFunction(`${innerText('.daemon-moved')}.startsWith('Checked')`, { timeout: 30_000 });
    t.match(await page.evaluate(innerText('.daemon-moved')), proxy.url);
    t.not(before, `${proxy.url}/json_rpc`);
    const asked = proxy.bodies.length;
    await page.click('a[href="#overview"]');
    await page.waitForFunction(`${innerText('.facts')}.includes(${JSON.stringify(proxy.url)})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    t.ok(proxy.bodies.length > asked, 'the wallet process asks the new daemon');
    // Back to the simulator's own daemon before this one stops.
    await page.click('a[href="#settings"]');
    await page.waitForSelector('#settings-daemon');
    await typeInto(page, '#settings-daemon', daemon);
    await page.click('form.daemon button[type="submit"]');
    await page.waitForFunction(`${innerText('.daemon-moved')}.startsWith('Checked')`, { timeout: 30_000 });
  });

  await t.test('every screen fits a phone and a desktop', async (t) => {
    for (const [viewport, suffix] of [
      [PHONE, '-phone'],
      [DESKTOP, ''],
    ] as const) {
      await page.setViewport(viewport);
      for (const screen of SCREENS) {
        await page.click(`a[href="#${screen}"]`);
        await page.waitForSelector(`#screen-${screen}`);
        // The newest history entry opened to its details and proof, by keyboard.
        if (screen === 'history') {
          // The screen shows "Reading the history…" until the wallet process has answered.
          await page.waitForSelector('.entry summary');
          await page.focus('.entry summary');
          await page.keyboard.press('Enter');
        }
        await new Promise((resolve) => setTimeout(resolve, 150));
        t.ok(await page.evaluate(FITS), `${screen} fits ${viewport.width} px`);
        if (['overview', 'receive', 'history'].includes(screen)) await shoot(`${screen}${suffix}`);
      }
    }
  });

  t.same(errors, [], 'no script errors in the page');
});
