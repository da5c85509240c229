/**
 * The `web-wallet` plugin: the open wallet in the browser, served by the wallet process itself so that the keys never
 * leave it. `umbra wallet web` (or `wallet open --web`) opens the wallet file and hands the plugin the wallet (the
 * `wallet` service) and how to serve it (the `webWallet` service, settings.ts); for a wallet file that does not
 * exist yet, the page first makes it (setup-routes.ts). The page is built on the wallet library through the JSON API
 * of api-routes.ts, not on the wallet's JSON-RPC. docs/wallet.md § Web wallet.
 */
import type { AddressInfo } from 'node:net';
import type { Plugin } from '../../host/plugin.js';
import { optionalService } from '../../host/services/services.js';
import { WebAccess } from './access.js';
import { createDappEndpoint } from './dapp/dapp-endpoint.js';
import { walletFilePermissions } from './dapp/permission-store.js';
import { approveOnTerminal } from './dapp/terminal-approvals.js';
import { apiRoutes, RING_SIZES, type ApiHandler } from './api-routes.js';
import { AssetNames } from './asset-names.js';
import { IdleLock } from './idle-lock.js';
import { readKeptSettings } from './kept-settings.js';
import { loadPageAssets } from './page-assets.js';
import { PushStream } from './push-stream.js';
import { webWalletServer } from './server.js';
import { setupRoutes } from './setup-routes.js';
import { TransactionJobs } from './transaction-jobs.js';
import { DEFAULT_RING } from '../../wallet/wallet-constants.js';
import type { WalletService } from '../../wallet/wallet-service.js';

/** The URL a browser opens: a host the browser can reach, with the one-time token. */
function pageUrl(host: string, port: number, token: string): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}/?token=${token}`;
}

const plugin: Plugin = {
  name: 'web-wallet',
  requires: [],
  register(container) {
    const wallet = optionalService(container, 'wallet');
    const given = optionalService(container, 'webWallet');
    if (!given || (!wallet && !given.setup))
      throw new Error("the web-wallet plugin serves an open wallet: run it with 'umbra wallet web'");
    // A copy: the connection endpoint opened with the wallet (below) is added to it.
    const settings = { ...given };
    let closeDapp: (() => void) | undefined;
    const { logger, core } = container.cradle;
    const push = new PushStream();
    const lock = new IdleLock(settings.lockMinutes, () => push.publish('lock'));
    const access = new WebAccess(settings.login);
    const routes = new Map<string, ApiHandler>();
    const unsubscribe = [settings.approvals?.onChange(() => push.publish('approvals'))];
    /** Opens the connection endpoint web apps ask `opened` through, its requests shown on the page and the terminal. */
    const openDapp = (opened: WalletService): void => {
      if (settings.approvals || !opened.file) return;
      const permissions = walletFilePermissions(opened.file);
      const endpoint = createDappEndpoint(opened, {
        core,
        walletName: settings.walletName ?? 'Umbra wallet',
        permissions,
      });
      settings.approvals = endpoint.approvals;
      settings.dappUpgrade = (request, socket, head) => endpoint.upgrade(request, socket, head);
      const stopAsking = settings.terminal ? approveOnTerminal(endpoint.approvals, settings.terminal) : undefined;
      unsubscribe.push(endpoint.approvals.onChange(() => push.publish('approvals')));
      closeDapp = () => {
        stopAsking?.();
        endpoint.close();
      };
    };
    /** Serves `opened`: its API, and its syncs and new entries pushed to the page. */
    const serve = (opened: WalletService): void => {
      openDapp(opened);
      let caughtUp = false;
      const names = new AssetNames(opened);
      const jobs = new TransactionJobs(opened, names, () => push.publish('job'));
      const kept = readKeptSettings(opened.file?.contents).ring;
      const ring = { size: kept !== undefined && RING_SIZES.includes(kept) ? kept : DEFAULT_RING };
      const changed = () => push.publish('wallet');
      const parts = { core, wallet: opened, names, settings, lock, jobs, ring, caughtUp: () => caughtUp, changed };
      for (const [route, handler] of apiRoutes(parts)) routes.set(route, handler);
      unsubscribe.push(
        opened.onSynced(() => {
          caughtUp = true;
          push.publish('wallet');
        }),
        opened.history.onAdd(() => push.publish('wallet')),
      );
      push.publish('wallet');
    };
    if (wallet) serve(wallet);
    else for (const [route, handler] of setupRoutes(settings.setup!, serve)) routes.set(route, handler);
    const server = webWalletServer({ access, lock, push, routes, assets: loadPageAssets(), settings, logger });
    return {
      async start() {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(settings.port, settings.host, resolve);
        });
        lock.start();
        const { port } = server.address() as AddressInfo;
        settings.listening?.(pageUrl(settings.host, port, access.token!));
      },
      async stop() {
        closeDapp?.();
        for (const stop of unsubscribe) stop?.();
        lock.stop();
        push.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  },
};

export default plugin;
