/**
 * The `p2p` plugin: framed TCP connections to other nodes — handshake, block and transaction propagation, chain
 * sync, peer lists and ban scores (docs/protocol.md, "P2P"). It registers the `p2p` service and feeds the peer
 * figures and the target height of NODE.GetInfo.
 */
import { asValue, type AwilixContainer } from 'awilix';
import type { Plugin } from '../../host/plugin.js';
import type { BaseServices } from '../../host/services/base.js';
import { DEFAULT_SETTINGS, P2pNode } from './p2p-node.js';
import type { PeerCounts } from './peer-manager.js';
import type { ChainService } from '../../host/services/chain.js';
import { txPoolOf } from '../../host/services/tx-pool.js';
import type { MiniblockPoolService } from '../../host/services/miniblocks.js';

const nodes = new WeakMap<AwilixContainer, P2pNode>();

const plugin: Plugin = {
  name: 'p2p',
  requires: ['consensus'],
  register(container) {
    // GetInfo's figures come from the node once it runs (consensus registers `chainInfo` for such contributions).
    const info = container.resolve<{ peers?: () => PeerCounts; peerHeight?: () => number }>('chainInfo');
    info.peers = () => nodes.get(container)?.counts() ?? { incoming: 0, outgoing: 0, white: 0, grey: 0 };
    info.peerHeight = () => Math.max(0, ...(nodes.get(container)?.peers().map((peer) => peer.height) ?? []));
  },
  async start(container) {
    const { config, network, core, store, logger } = container.cradle as BaseServices;
    const node = new P2pNode(
      { network: network.name, chain: container.resolve<ChainService>('chain'), core, store, logger: logger.child('p2p'), txPool: txPoolOf(container),
        miniblocks: container.hasRegistration('miniblocks') ? container.resolve<MiniblockPoolService>('miniblocks') : undefined },
      { ...DEFAULT_SETTINGS, bind: config.p2pBind, addPeers: config.addPeers, maxPeers: config.maxPeers },
    );
    await node.start();
    nodes.set(container, node);
    container.register({ p2p: asValue(node) });
  },
  async stop(container) {
    await nodes.get(container)?.stop();
    nodes.delete(container);
  },
};

export default plugin;
