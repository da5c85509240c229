/**
 * The web wallet for server-side tests: a process serving only it, and its API as its page calls it (the one-time
 * link traded for a session cookie, the page's session token read from it, JSON requests from the page's origin).
 */
import type { Test } from 'tap';
import { composeApp } from '../../../host/app.js';
import { loadConfig } from '../../../host/config/load.js';
import type { WebWalletSettings } from '../../../plugins/web-wallet/settings.js';
import type { WalletService } from '../../../wallet/wallet-service.js';

export interface WebSession {
  /** `GET /api/<path>` or, with a body, `POST`: the status and the JSON answered. */
  api(path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export async function openWebSession(link: string): Promise<WebSession> {
  const origin = new URL(link).origin;
  const redeemed = await fetch(link, { redirect: 'manual' });
  const cookie = redeemed.headers.get('set-cookie')!.split(';')[0]!;
  const page = await (await fetch(`${origin}/`, { headers: { Cookie: cookie } })).text();
  const token = /<meta name="umbra-session" content="([^"]+)"/.exec(page)![1]!;
  return {
    async api(path, body) {
      const response = await fetch(`${origin}/api/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          Cookie: cookie,
          ...(body === undefined
            ? {}
            : { Origin: origin, 'Content-Type': 'application/json', 'x-umbra-session': token }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await response.json() };
    },
  };
}

/**
 * A process serving only the web wallet of `wallet` on a free loopback port, the password never asked; `settings`
 * adds to or replaces the plugin's settings. Resolves to the one-time link; stopped with the test, the wallet closed.
 */
export async function serveWebWallet(
  t: Test,
  wallet: WalletService,
  settings: Partial<WebWalletSettings> = {},
): Promise<string> {
  let link = '';
  const config = loadConfig({
    flags: { network: 'simulator', plugins: ['web-wallet'], transports: [], store: 'memory', logLevel: 'error' },
  });
  const app = await composeApp(config, {
    services: {
      wallet,
      webWallet: {
        host: '127.0.0.1',
        port: 0,
        lockMinutes: 10,
        checkPassword: async () => undefined,
        listening: (url) => (link = url),
        ...settings,
      },
    },
  });
  await app.start();
  t.teardown(async () => {
    await app.stop();
    wallet.close();
  });
  return link;
}
