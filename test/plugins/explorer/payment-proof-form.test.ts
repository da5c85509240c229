/**
 * The transaction page's payment-proof form in a real headless Chromium, on a real `umbra simulator`, at phone width
 * (390×844) and at desktop width: the proof a wallet gives for its transfer, typed and sent with the keyboard, shows
 * the receiver and the amount; a proof of another transaction and one with an altered amount say why they do not
 * fit; the form is labelled and stays inside the screen. Chromium is `UMBRA_CHROMIUM` or /usr/bin/chromium.
 */
import { existsSync } from 'node:fs';
import puppeteer, { type Page } from 'puppeteer-core';
import t, { type Test } from 'tap';
import { decodePaymentProof, encodePaymentProof } from '../../../protocol/address.js';
import { walletRpc } from '../../helpers/wallet-app.js';
import { startDocsSimulator } from '../../docs/simulator.js';

const CHROMIUM = process.env['UMBRA_CHROMIUM'] || '/usr/bin/chromium';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

t.test('the payment-proof form in headless Chromium', async (t) => {
  if (!existsSync(CHROMIUM))
    t.fail(
      `no Chromium at ${CHROMIUM}: install the Debian package (apt-get install -y chromium) or set UMBRA_CHROMIUM to a Chromium binary`,
    );
  if (!existsSync(CHROMIUM)) return;

  const sim = await startDocsSimulator(2);
  t.teardown(() => sim.cli.child.kill('SIGKILL'));
  const wallet0 = sim.baseUrl(30000);
  const bob = (await walletRpc(sim.baseUrl(30001), 'GetAddress')).address as string;
  /** A transfer of `amount` to bob, mined; its txid and the payment proof wallet 0 gives for it. */
  const pay = async (amount: number): Promise<{ txid: string; proof: string }> => {
    const { txid } = await walletRpc(wallet0, 'transfer', { destination: bob, amount, ringsize: 2 });
    await sim.settled();
    const { entry } = await walletRpc(wallet0, 'GetTransferbyTXID', { txid });
    return { txid, proof: entry.proof };
  };
  const paid = await pay(12345);
  const other = await pay(777);
  const { blinder, shared } = decodePaymentProof(paid.proof);
  const inflated = encodePaymentProof(blinder, shared, 12346n);

  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  const explorer = `${sim.daemonUrl.replace(/\/json_rpc$/, '')}/explorer/`;
  const text = (selector: string) =>
    // biome-ignore lint/performance/useDomNodeTextContent: the checks read the page as a reader sees it, laid out
    page.$eval(selector, (element) => (element as unknown as { innerText: string }).innerText);
  /** Types `proof` into the field and sends it with the keyboard: Tab to the button, Enter. */
  const check = async (t: Test, proof: string) => {
    await page.goto(`${explorer}tx/${paid.txid}`, { waitUntil: 'domcontentloaded' });
    await page.focus('#proof');
    await page.keyboard.type(proof);
    await page.keyboard.press('Tab');
    t.equal(await page.evaluate('document.activeElement.textContent'), 'Check', 'Tab reaches the button');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    t.equal(await page.$eval('#proof', (input) => (input as unknown as { value: string }).value), proof, 'kept');
  };
  /**
   * Whether the page is no wider than the viewport, and the form's section, its field and button and its verdict lie
   * inside it without scrolling (the field scrolls its own long text, as fields do).
   */
  const fits = (page: Page, width: number) =>
    page.evaluate(`(() => {
      const right = (selector) => [...document.querySelectorAll(selector)].every((element) => element.getBoundingClientRect().right <= ${width});
      const unscrolled = (selector) => [...document.querySelectorAll(selector)].every((element) => element.scrollWidth <= element.clientWidth);
      return document.documentElement.scrollWidth <= ${width} && right('#payment-proof, #payment-proof *') &&
        unscrolled('#payment-proof, #payment-proof form, .proof-result');
    })()`);

  await t.test('at 390 px: the right proof shows the receiver and the amount', async (t) => {
    await page.setViewport(PHONE);
    await check(t, paid.proof);
    t.equal(new URL(page.url()).searchParams.get('proof'), paid.proof, 'a plain GET of the same page');
    t.equal(await text('label[for=proof]'), 'Payment proof (umbproof1…) the sender gave for this transaction');
    const verdict = await text('.proof-result[role=status]');
    t.match(verdict, /^Fits: /);
    const receiver = await page.evaluate(
      `document.querySelector('.proof-result[role=status] [title]')?.getAttribute('title') ?? null`,
    );
    t.equal(receiver, bob, 'the receiver (shortened in the middle, whole in its title)');
    t.match(verdict, '0.12345 UMB (12345 atomic units)', 'the amount');
    t.match(verdict, /ring member [12] of 2 in payload 1\.$/);
    t.equal(await fits(page, PHONE.width), true, 'the form and its verdict fit the phone');
  });

  await t.test('at 390 px: a proof of another transaction, and an altered amount, say why', async (t) => {
    await check(t, other.proof);
    t.match(
      await text('.proof-result[role=alert]'),
      `Does not fit: no member of the ring of transaction ${paid.txid} received the payment this proof shows: it was made for another transaction`,
    );
    t.equal(await fits(page, PHONE.width), true, 'a long reason wraps inside the screen');
    await check(t, inflated);
    t.match(
      await text('.proof-result[role=alert]'),
      /^Does not fit: the proof opens the payload of umbt1\w+ \(ring member [12] of 2\), but that member did not receive 0\.12346 UMB \(12346 atomic units\): the proof's amount was altered$/,
    );
    await check(t, 'umbproof1 not a proof');
    t.match(await text('.proof-result[role=alert]'), /^Does not fit: not a valid payment proof: /);
  });

  await t.test('at 1280 px: the field and the button on one line; the JSON view carries the verdict', async (t) => {
    await page.setViewport(DESKTOP);
    await check(t, paid.proof);
    const [field, button] = await page.$$eval('#payment-proof input, #payment-proof button', (elements) =>
      elements.map((element) => element.getBoundingClientRect().top),
    );
    t.equal(field, button, 'side by side');
    t.equal(await fits(page, DESKTOP.width), true);
    const json = (await (await fetch(`${explorer}tx/${paid.txid}?format=json&proof=${paid.proof}`)).json()) as {
      proofCheck: unknown;
    };
    t.match(json.proofCheck, { proof: paid.proof, answer: { valid: true, receiver: bob, amount: 12345 } });
  });

  t.same(errors, [], 'no script errors');
});
