import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import t from 'tap';
import { launchChromium, serveStaticSite } from '../../helpers/chromium.js';
import { loadCore } from '../../../core-native/ts/index.js';
import { simulatorWalletSecret } from '../../../cli/simulator-command.js';
import { rpcCall } from '../../helpers/app.js';
import { REPO_ROOT, runCli, startCli, walletFlags } from '../../helpers/cli.js';
import { startWalletSimulator } from '../../helpers/wallet-simulator.js';

const PAGE_DIR = join(REPO_ROOT, 'examples', 'lottery-dapp');

/** Approves (or denies) in the wallet's page the next request of `kind` it lists. */
async function answer(walletPage: Page, kind: string, approve: boolean): Promise<void> {
  const request = `li.request[data-kind="${kind}"]`;
  await walletPage.bringToFront();
  await walletPage.waitForSelector(request, { timeout: 60_000 });
  await walletPage.click(`${request} .actions button:${approve ? 'last-child' : 'first-child'}`);
  await walletPage.waitForSelector(request, { hidden: true, timeout: 60_000 });
}

t.test("the lottery page asks, the user answers in the web wallet's page, the call is mined", async (t) => {
  const browser = await launchChromium(t);
  if (!browser) return;
  const core = await loadCore();
  const sim = await startWalletSimulator(t, 'umbra-web-dapp-', 2);
  const file = await sim.restore('player', simulatorWalletSecret(core, 0));
  const flags = walletFlags(file, sim.passwordFile, sim.daemonUrl);
  const installed = await runCli(
    ['wallet', 'install', join(REPO_ROOT, 'examples', 'contracts', 'lottery.bas'), '--yes', '--json', ...flags],
    undefined,
    90_000,
    sim.env,
  );
  t.equal(installed.code, 0, installed.stderr);
  const { scid } = JSON.parse(installed.stdout);

  const web = startCli(['wallet', 'web', ...flags, '--web-bind', '127.0.0.1:0'], sim.env);
  t.teardown(() => web.child.kill('SIGKILL'));
  const [, link] = await web.waitFor(/Web wallet: open (http:\/\/\S+)/, 90_000);
  const endpoint = `ws://${new URL(link!).host}/dapp`;

  const appOrigin = await serveStaticSite(t, PAGE_DIR);

  const walletPage = await browser.newPage();
  await walletPage.goto(link!);
  await walletPage.waitForSelector('a[href="#approvals"]', { timeout: 60_000 });
  await walletPage.click('a[href="#approvals"]');
  const app = await browser.newPage();
  const errors: string[] = [];
  for (const page of [walletPage, app]) page.on('pageerror', (error) => errors.push(String(error)));
  await app.goto(`${appOrigin}/index.html?wallet=${encodeURIComponent(endpoint)}&scid=${scid}`);
  /**
   * Waits for the page's status line, polled on a timer (a tab behind the wallet's gets no animation frames); a
   * timeout says what the page and the wallet process said last.
   */
  const status = (pattern: RegExp) =>
    app
      .waitForFunction(`${pattern}.test(document.getElementById('status').textContent)`, {
        timeout: 180_000,
        polling: 200,
      })
      .catch(async (error: Error) => {
        const shown = await app.$eval('#status', (line) => line.textContent).catch(() => '?');
        throw new Error(`${error.message}; the page says ${JSON.stringify(shown)}; the wallet's log:\n${web.log()}`);
      });

  await app.bringToFront();
  await app.click('#connect');
  await answer(walletPage, 'connect', true);
  await answer(walletPage, 'address', true);
  await status(/^Connected\.$/);
  t.match(await app.$eval('#address', (output) => output.textContent), /^umbt1/, 'the page has the address');
  t.match(
    await walletPage.$eval('ul.permissions', (list) => list.textContent),
    appOrigin,
    'the origin is listed among the permissions',
  );

  await app.bringToFront();
  await app.$eval('#amount', (input) => {
    (input as unknown as { value: string }).value = '0.01';
  });
  await app.click('#play');
  await walletPage.waitForSelector('li.request[data-kind="call"] .trial.ok', { timeout: 90_000 });
  await answer(walletPage, 'call', true);
  await status(/^Entered: transaction [0-9a-f]{64}$/);
  const txid = (await app.$eval('#status', (line) => line.textContent))!.slice(-64);
  for (;;) {
    const [record] = (await rpcCall(sim.daemonUrl, 'NODE.GetTransaction', { txs_hashes: [txid] })).txs;
    if (record.valid_block !== '') {
      t.match(record.sc_outcome, { status: 'committed' }, 'mined, and the call committed');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  await app.bringToFront();
  await app.click('#play');
  await answer(walletPage, 'call', false);
  await status(/^Not entered: you denied it in the wallet$/);
  t.same((await rpcCall(sim.daemonUrl, 'NODE.GetTxPool')).txs, [], 'the denied call sent nothing');
  t.same(errors, [], 'no script errors');
});
