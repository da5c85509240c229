/**
 * The `wallet` plugin: serves an open wallet's JSON-RPC methods and `POST /install_sc` on the process's wallet RPC
 * server, and publishes its `history` and `balance` push topics. The wallet itself (a WalletService: keys, daemon
 * client, balances, transfers) is opened by `umbra wallet open --rpc-server`, which hands it to the app as the
 * `wallet` service and composes the app with WALLET_RPC_SERVER.
 */
import { WALLET_RPC_SERVER } from '../../host/rpc/servers.js';
import type { Plugin } from '../../host/plugin.js';
import { optionalService } from '../../host/services/services.js';
import { INSTALL_SC_PATH, installRoute } from './install-route.js';
import { walletMethods } from './rpc/wallet-methods.js';
import { publishWalletTopics } from './wallet-topics.js';

const plugin: Plugin = {
  name: 'wallet',
  requires: [],
  register(container) {
    const wallet = optionalService(container, 'wallet');
    if (!wallet)
      throw new Error("the wallet plugin serves an open wallet: run it with 'umbra wallet open --rpc-server'");
    const { rpcEndpoints, core } = container.cradle;
    const endpoint = rpcEndpoints.get(WALLET_RPC_SERVER.name);
    for (const method of walletMethods(wallet, core)) endpoint.registry.add(method);
    endpoint.addRoute(INSTALL_SC_PATH, installRoute(wallet));
    publishWalletTopics(wallet, endpoint);
  },
};

export default plugin;
