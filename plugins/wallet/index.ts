/**
 * The `wallet` plugin: serves an open wallet's JSON-RPC methods and `POST /install_sc` on the process's wallet RPC
 * server. The wallet itself (a WalletService: keys, daemon client, balances, transfers) is opened by `umbra wallet open --rpc-server`, which puts it
 * into the container as `wallet` and composes the app with WALLET_RPC_SERVER.
 */
import { WALLET_RPC_SERVER } from '../../host/app.js';
import type { Plugin } from '../../host/plugin.js';
import type { BaseServices } from '../../host/services/base.js';
import { INSTALL_SC_PATH, installRoute } from './install-route.js';
import { walletMethods } from './rpc/wallet-methods.js';
import type { WalletService } from '../../wallet/wallet-service.js';

const plugin: Plugin = {
  name: 'wallet',
  requires: [],
  register(container) {
    if (!container.hasRegistration('wallet')) throw new Error("the wallet plugin serves an open wallet: run it with 'umbra wallet open --rpc-server'");
    const { rpcEndpoints, core } = container.cradle as BaseServices;
    const endpoint = rpcEndpoints.get(WALLET_RPC_SERVER.name);
    const wallet = container.resolve<WalletService>('wallet');
    for (const method of walletMethods(wallet, core)) endpoint.registry.add(method);
    endpoint.addRoute(INSTALL_SC_PATH, installRoute(wallet));
  },
};

export default plugin;
