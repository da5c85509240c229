/**
 * The example lottery page (examples/lottery-dapp) in a real headless Chromium: served from an origin of its own,
 * it opens the wallet's connection endpoint (a real WalletService on a real `umbra simulator`, behind another server),
 * asks to connect, for the address and to call Lottery with a deposit; the test approves each request as the user
 * would in DappApprovals, and the call is mined and commits. A denied call sends nothing and the page says so.
 * Chromium is `UMBRA_CHROMIUM` or /usr/bin/chromium.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { launchChromium, serveStaticSite } from '../../../helpers/chromium.js';
import { loadCore } from '../../../../core-native/ts/index.js';
import type { DappRequest } from '../../../../plugins/web-wallet/dapp/approvals.js';
import { installArgs } from '../../../../wallet/contract-args.js';
import { rpcCall } from '../../../helpers/app.js';
import { REPO_ROOT } from '../../../helpers/cli.js';
import { startWalletSimulator } from '../../../helpers/wallet-simulator.js';
import { serveEndpoint, simulatorWallet } from './dapp-fixture.js';

const PAGE_DIR = join(REPO_ROOT, 'examples', 'lottery-dapp');

t.test('the lottery page asks the wallet, and its approved call is mined', async (t) => {
  const browser = await launchChromium(t);
  if (!browser) return;

  const core = await loadCore();
  const simulator = await startWalletSimulator(t, 'umbra-dapp-page-', 1);
  const { wallet, file } = await simulatorWallet(core, simulator, 0);
  t.teardown(() => wallet.close());
  const mined = async (txid: string) => {
    for (;;) {
      const record = await wallet.daemon.getTransaction(txid);
      if (record.valid_block !== '') return record;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const scid = await wallet.transfers.send({
    transfers: [],
    scRpc: installArgs(readFileSync(join(REPO_ROOT, 'examples', 'contracts', 'lottery.bas'), 'utf8')),
    ringSize: 2,
  });
  await mined(scid);

  const { endpoint, url } = await serveEndpoint(t, core, wallet, file);
  const pageOrigin = await serveStaticSite(t, PAGE_DIR);

  // The user: approves what the page asks, in order, except a call with a deposit of 0.02 UMB, which it denies.
  const seen: DappRequest[] = [];
  endpoint.approvals.onChange(() => {
    for (const request of endpoint.approvals.pending()) {
      if (seen.some(({ id }) => id === request.id)) continue;
      seen.push(request);
      if (request.details['coin deposit'] === '2000') endpoint.approvals.deny(request.id);
      else void endpoint.approvals.approve(request.id);
    }
  });

  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${pageOrigin}/index.html?wallet=${encodeURIComponent(url)}&scid=${scid}`);
  const status = (pattern: RegExp) =>
    page.waitForFunction(`${pattern}.test(document.getElementById('status').textContent)`, { timeout: 60_000 });

  await page.click('#connect');
  await status(/^Connected\.$/);
  t.equal(await page.$eval('#address', (output) => output.textContent), wallet.address, 'the page has the address');
  t.match(seen, [
    { kind: 'connect', origin: pageOrigin, name: 'Umbra lottery' },
    { kind: 'address', origin: pageOrigin },
  ]);

  await page.$eval('#amount', (input) => {
    (input as unknown as { value: string }).value = '0.01';
  });
  await page.click('#play');
  await status(/^Entered: transaction [0-9a-f]{64}$/);
  const call = seen[2]!;
  t.match(call, {
    kind: 'call',
    details: { scid, entrypoint: 'Lottery', 'coin deposit': '1000', ring: '2' },
    trial: { ok: true, gas: /^\d+ compute, \d+ storage$/ },
  });
  t.match(call.summary, `call Lottery of contract ${scid}, depositing 0.01000 UMB (ring 2, fee`);
  const txid = (await page.$eval('#status', (line) => line.textContent))!.slice(-64);
  t.match((await mined(txid)).sc_outcome, { status: 'committed' }, 'mined, and the call committed');
  const store = await rpcCall(simulator.daemonUrl, 'NODE.GetSC', { scid, keysstring: ['deposit_total'] });
  t.same(store.valuesstring, ['1000'], 'the deposit is in the pot');

  await page.$eval('#amount', (input) => {
    (input as unknown as { value: string }).value = '0.02';
  });
  await page.click('#play');
  await status(/^Not entered: you denied it in the wallet$/);
  t.same((await rpcCall(simulator.daemonUrl, 'NODE.GetTxPool')).txs, [], 'the denied call sent nothing');
  t.same(errors, [], 'no script errors');
});
