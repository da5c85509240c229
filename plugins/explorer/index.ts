/**
 * The `explorer` plugin: a block explorer in the browser, as server-rendered pages under `/explorer/` on the daemon's
 * RPC HTTP server (behind `--rpc-login` like the rest): home, block, transaction, contract, address, pool and search,
 * each also as JSON with `?format=json`. It reads the chain through services and the daemon's own RPC methods, called
 * in-process. Leave it out of config `plugins` to turn it off. docs/explorer.md.
 */
import type { Plugin } from '../../host/plugin.js';
import { curvePointCheck, decodeAddress, encodeAddress } from '../../protocol/address.js';
import { optionalService } from '../../host/services/services.js';
import { addressView, renderAddress } from './address-page.js';
import { loadAssets } from './assets.js';
import { blockView, renderBlock } from './block-page.js';
import { contractView, renderContract } from './contract-page.js';
import { daemonQueries } from './daemon-queries.js';
import { renderHome } from './home-page.js';
import { homeView } from './home-view.js';
import { nameOwners } from './name-owners.js';
import { BASE } from './layout.js';
import { poolView, renderPool } from './pool-page.js';
import { recentTransactions } from './recent-transactions.js';
import { explorerRoute } from './router.js';
import { searchPath } from './search.js';
import { renderTransaction, transactionView } from './transaction-page.js';

const plugin: Plugin = {
  name: 'explorer',
  requires: ['consensus'],
  optional: ['mempool', 'p2p', 'mining'],
  register(container) {
    const { chain, core, network, rpcEndpoints } = container.cradle;
    const daemon = rpcEndpoints.get('daemon');
    const query = daemonQueries(daemon.registry);
    const pool = () => optionalService(container, 'txPool');
    const keyOf = (address: string): Uint8Array =>
      decodeAddress(address, network.name, curvePointCheck(core)).publicKey;
    const addressOf = (key: Uint8Array): string => encodeAddress(network.name, key);
    const isAddress = (text: string): boolean => {
      try {
        keyOf(text);
        return true;
      } catch {
        return false;
      }
    };
    const miners = optionalService(container, 'miners');
    const home = homeView({
      chain,
      query,
      p2p: optionalService(container, 'p2p'),
      poolSize: () => pool()?.size ?? 0,
      miners: () => miners?.connected() ?? [],
    });
    const recent = recentTransactions(chain, core);
    const names = nameOwners(chain, query);
    // The home page is rendered once per change of its figures: the view is cached, and so is its HTML.
    let homeHtml: { view: unknown; text: string } | undefined;
    const route = explorerRoute({
      home: {
        view: () => home(),
        render: (view) => {
          if (homeHtml === undefined || homeHtml.view !== view) homeHtml = { view, text: renderHome(view) };
          return homeHtml.text;
        },
      },
      block: { view: (id) => blockView(id, { chain, query, network: network.name }), render: renderBlock },
      tx: {
        view: (txid, params) => transactionView(txid, { query, addressOf }, params.get('proof')),
        render: renderTransaction,
      },
      contract: { view: (scid) => contractView(scid, { query, recent }), render: renderContract },
      address: {
        view: (address) => addressView(address, { chain, query, keyOf, names, recent }),
        render: renderAddress,
      },
      pool: { view: () => poolView(pool()), render: renderPool },
      search: (text) => searchPath(text, { chain, pool: pool(), query, isAddress }),
      assets: loadAssets(),
    });
    daemon.addPrefixRoute(BASE, route);
    daemon.addRoute('/explorer', async () => ({
      status: 301,
      body: '',
      contentType: 'text/html; charset=utf-8',
      headers: { Location: BASE },
    }));
  },
};

export default plugin;
