/**
 * The `p2p` plugin: libp2p connections (TCP, Noise, yamux) to other nodes — handshake, block and transaction propagation, chain
 * sync, peer lists and ban scores (docs/protocol.md, "P2P"). It registers the `p2p` service, feeds the peer figures
 * and the target height of NODE.GetInfo, and answers NODE.GetPeers. With the `mempool` and `mining` plugins it also
 * relays transactions and miniblocks (it orders after them, so their services exist when it registers).
 */
import type { Plugin } from '../../host/plugin.js';
import { optionalService, provideServices } from '../../host/services/services.js';
import { DEFAULT_SETTINGS, P2pNode } from './p2p-node.js';
import { p2pMethods } from './rpc.js';

const plugin: Plugin = {
  name: 'p2p',
  requires: ['consensus'],
  optional: ['mempool', 'mining'],
  provides: ['p2p'],
  register(container, config) {
    const { network, core, store, logger, chain, snapshots, chainInfo, rpcEndpoints } = container.cradle;
    const txPool = optionalService(container, 'txPool');
    const node = new P2pNode(
      {
        network: network.name,
        chain,
        snapshots,
        core,
        store,
        logger: logger.child('p2p'),
        txPool: () => txPool,
        miniblocks: optionalService(container, 'miniblocks'),
      },
      {
        ...DEFAULT_SETTINGS,
        bind: config.p2pBind,
        addPeers: config.addPeers,
        seedPeers: config.seedPeers,
        maxPeers: config.maxPeers,
        timings: { ...DEFAULT_SETTINGS.timings, requestTimeoutMs: config.p2pRequestTimeoutMs },
        noPeerWarningMs: config.noPeerWarningMs,
        maxPerIp: config.p2pMaxPerIp,
        fullSync: config.fullSync,
        fastSyncMinHeight: config.fastSyncMinHeight,
        // Internal: the P2P bench measures what encryption costs against this; not an operator setting.
        plaintext: process.env.UMBRA_P2P_PLAINTEXT === '1',
      },
    );
    provideServices(container, { p2p: node });
    for (const method of p2pMethods(node)) rpcEndpoints.get('daemon').registry.add(method);
    chainInfo.peers = () => node.counts();
    chainInfo.peerHeight = () => Math.max(0, ...node.peers().map((peer) => peer.height));
    chainInfo.fastSync = () => node.fastSyncStatus();
    return { start: () => node.start(), stop: () => node.stop() };
  },
};

export default plugin;
