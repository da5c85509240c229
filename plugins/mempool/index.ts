/**
 * The `mempool` plugin: the transaction pool (`txPool` service), NODE.SendRawTransaction and NODE.GetTxPool. The
 * chain looks up pending transactions in it when a block lists them, and the pool drops what each new main-chain
 * block included or made invalid.
 */
import { asValue, type AwilixContainer } from 'awilix';
import type { Plugin } from '../../host/plugin.js';
import type { BaseServices } from '../../host/services/base.js';
import type { ChainService } from '../../host/services/chain.js';
import { mempoolMethods } from './rpc.js';
import { TxPool } from './tx-pool.js';

const pools = new WeakMap<AwilixContainer, TxPool>();

const plugin: Plugin = {
  name: 'mempool',
  requires: ['consensus'],
  register(container) {
    const { rpcEndpoints } = container.cradle as BaseServices;
    const pool = (): TxPool => {
      const found = pools.get(container);
      if (!found) throw new Error('the transaction pool is not started yet');
      return found;
    };
    for (const method of mempoolMethods(pool)) rpcEndpoints.get('daemon').registry.add(method);
    const info = container.resolve<{ txPoolSize?: () => number }>('chainInfo');
    info.txPoolSize = () => pools.get(container)?.size ?? 0;
  },
  start(container) {
    const { core, network } = container.cradle as BaseServices;
    const chain = container.resolve<ChainService>('chain');
    const pool = new TxPool(chain, (data) => core.keccak256(data), network.name);
    pools.set(container, pool);
    container.register({ txPool: asValue(pool) });
    pool.connect();
  },
};

export default plugin;
