/**
 * The system Chromium for browser tests (`UMBRA_CHROMIUM`, else /usr/bin/chromium, which `make test` installs where
 * it can), launched headless and closed with the test; and a static site of its own origin for the example pages.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import type { Test } from 'tap';

export const CHROMIUM = process.env['UMBRA_CHROMIUM'] || '/usr/bin/chromium';

/**
 * A headless Chromium closed when `t` ends; undefined (and `t` failed, saying how to get one) when there is none.
 * Tabs in the background keep their timers and rendering: a test may drive two at once.
 */
export async function launchChromium(t: Test): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) {
    t.fail(
      `no Chromium at ${CHROMIUM}: install the Debian package (apt-get install -y chromium) or set UMBRA_CHROMIUM to a Chromium binary`,
    );
    return undefined;
  }
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
    ],
  });
  t.teardown(() => browser.close());
  return browser;
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** Serves the pages of `dir` (lower-case .html, .js and .css names) on a loopback port until `t` ends; its origin. */
export async function serveStaticSite(t: Test, dir: string): Promise<string> {
  const site = createServer((request, response) => {
    const name = new URL(request.url ?? '/', 'http://page').pathname.slice(1) || 'index.html';
    const path = join(dir, name);
    if (!/^[a-z-]+\.(html|js|css)$/.test(name) || !existsSync(path)) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': TYPES[extname(name)]! }).end(readFileSync(path));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => site.close(resolve)));
  return `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
}
