import t from 'tap';
import { launchChromium } from '../../helpers/chromium.js';
import WebSocket, { WebSocketServer } from 'ws';
import { loadCore } from '../../../core-native/ts/index.js';
import { mnemonicToSecretKey, newMnemonic } from '../../../protocol/mnemonic.js';
import type { DappApprovals, DappPermission, DappRequest } from '../../../plugins/web-wallet/dapp/approvals.js';
import { testWallet } from '../../helpers/wallet-app.js';
import { serveWebWallet } from './web-session.js';

const APP = 'http://lottery.example';

/** Requests and permissions held in memory; what the page answers is recorded. */
class TestApprovals implements DappApprovals {
  requests: DappRequest[] = [];
  granted: DappPermission[] = [{ origin: APP, name: 'Lottery', grantedAt: Date.now() }];
  readonly answered: string[] = [];
  private readonly listeners = new Set<() => void>();

  ask(request: Omit<DappRequest, 'origin' | 'name' | 'expiresAt'>): void {
    this.requests.push({ ...request, origin: APP, name: 'Lottery', expiresAt: Date.now() + 60_000 });
    this.changed();
  }
  pending(): DappRequest[] {
    return this.requests;
  }
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  async approve(id: string): Promise<void> {
    this.settle(id, 'approved');
  }
  deny(id: string): void {
    this.settle(id, 'denied');
  }
  permissions(): DappPermission[] {
    return this.granted;
  }
  revoke(origin: string): void {
    this.granted = this.granted.filter((permission) => permission.origin !== origin);
    this.answered.push(`revoked ${origin}`);
    this.changed();
  }
  private settle(id: string, answer: string): void {
    this.requests = this.requests.filter((request) => request.id !== id);
    this.answered.push(`${answer} ${id}`);
    this.changed();
  }
  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

t.test('the approvals panel', async (t) => {
  const browser = await launchChromium(t);
  if (!browser) return;
  const core = await loadCore();
  // The panel needs no daemon: the wallet's points at a port nobody answers.
  const wallet = testWallet(core, 'simulator', mnemonicToSecretKey(newMnemonic()), 'http://127.0.0.1:9');
  const approvals = new TestApprovals();
  approvals.ask({
    id: 'call-1',
    kind: 'call',
    summary: 'call Buy of the lottery with 1 UMB',
    details: { entrypoint: 'Buy', deposit: '100000' },
    trial: { ok: true, message: 'commits', gas: '1200' },
  });
  const sockets = new WebSocketServer({ noServer: true });
  t.teardown(() => sockets.close());
  const url = await serveWebWallet(t, wallet, {
    approvals,
    dappUpgrade: (request, socket, head) =>
      sockets.handleUpgrade(request, socket, head, (ws) => ws.send(`hello ${request.headers.origin}`)),
  });
  const origin = new URL(url).origin;

  await t.test('the connection endpoint takes any origin; the wallet endpoints do not', async (t) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/dapp`, { origin: APP });
    const [greeting] = await new Promise<[Buffer]>((resolve, reject) => {
      ws.once('message', (...args) => resolve(args as unknown as [Buffer]));
      ws.once('error', reject);
    });
    t.equal(greeting.toString(), `hello ${APP}`);
    ws.close();
    const elsewhere = new WebSocket(`${origin.replace('http', 'ws')}/api/events`, { origin: APP });
    await t.rejects(new Promise((resolve, reject) => elsewhere.once('open', resolve).once('error', reject)));
    const refused = await fetch(`${origin}/api/approvals/approve`, {
      method: 'POST',
      headers: { Origin: APP },
      body: '{"id":"call-1"}',
    });
    t.equal(refused.status, 401);
    t.same(approvals.answered, [], 'nothing was approved');
  });

  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url);
  // The page draws its navigation once its script has run, which can be after the load event.
  await page.waitForSelector('a[href="#approvals"]');
  await page.click('a[href="#approvals"]');
  await page.waitForSelector('.request[data-id="call-1"]');

  await t.test('a request shows what it would do, and its trial', async (t) => {
    // Run in the page, as source: the test is compiled without the DOM's types.
    const text = (await page.evaluate(`document.querySelector('.request[data-id="call-1"]').innerText`)) as string;
    t.match(text, /Lottery \(http:\/\/lottery\.example\) asks: call Buy of the lottery with 1 UMB/);
    t.match(text, /entrypoint\s+Buy/);
    t.match(text, /Trial run: would commit — commits \(gas 1200\)/);
  });

  await t.test('requests arrive live and are approved or denied', async (t) => {
    await page.evaluate('window.notReloaded = true');
    approvals.ask({
      id: 'transfer-2',
      kind: 'transfer',
      summary: 'send 2 UMB to umbt1… (ring 16)',
      details: { amount: '200000' },
    });
    await page.waitForSelector('.request[data-id="transfer-2"]');
    await page.click('.request[data-id="call-1"] button:not(.secondary)');
    await page.waitForFunction(`!document.querySelector('.request[data-id="call-1"]')`);
    await page.click('.request[data-id="transfer-2"] button.secondary');
    await page.waitForFunction(`!document.querySelector('.request[data-id="transfer-2"]')`);
    t.same(approvals.answered, ['approved call-1', 'denied transfer-2']);
    t.equal(await page.evaluate('window.notReloaded'), true);
  });

  await t.test('a connected origin is revoked', async (t) => {
    await page.click(`.permissions li[data-origin="${APP}"] button`);
    await page.waitForFunction(`!document.querySelector('.permissions')`);
    t.same(approvals.answered.at(-1), `revoked ${APP}`);
  });
  t.same(errors, [], 'no script errors in the page');
});
