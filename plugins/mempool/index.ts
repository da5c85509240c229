/**
 * The `mempool` plugin: the transaction pool (`txPool` service), NODE.SendRawTransaction and NODE.GetTxPool. The
 * chain looks up pending transactions in it when a block lists them, and the pool drops what each new main-chain
 * block included or made invalid.
 */
import type { Plugin } from '../../host/plugin.js';
import { provideServices } from '../../host/services/services.js';
import { mempoolMethods } from './rpc.js';
import { TxPool } from './tx-pool.js';

const plugin: Plugin = {
  name: 'mempool',
  requires: ['consensus'],
  provides: ['txPool'],
  register(container) {
    const { core, network, chain, chainInfo, rpcEndpoints } = container.cradle;
    const pool = new TxPool(chain, (data) => core.keccak256(data), network.name);
    pool.connect();
    provideServices(container, { txPool: pool });
    chainInfo.txPoolSize = () => pool.size;
    for (const method of mempoolMethods(() => pool)) rpcEndpoints.get('daemon').registry.add(method);
  },
};

export default plugin;
