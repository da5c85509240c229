/**
 * The `mempool` plugin: the transaction pool (`txPool` service), NODE.SendRawTransaction and NODE.GetTxPool. The
 * chain looks up pending transactions in it when a block lists them, and the pool drops what each new main-chain
 * block included or made invalid. It publishes the `tx` topic (txid, size, fee of each admitted transaction) to the
 * WebSocket clients subscribed to it.
 */
import type { Plugin } from '../../host/plugin.js';
import { toHex } from '../../protocol/bytes.js';
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
    const daemon = rpcEndpoints.get('daemon');
    for (const method of mempoolMethods(() => pool)) daemon.registry.add(method);
    daemon.addTopic('tx');
    pool.onAdd(({ txid, size, fee }) => daemon.publish('tx', () => ({ txid: toHex(txid), size, fee: Number(fee) })));
  },
};

export default plugin;
