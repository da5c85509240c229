/**
 * NODE.GetPeers (an Umbra extension, docs/rpc.md § NODE.GetPeers): the connected peers — address, direction, the
 * height each last announced, ping latency, connection age — and the running chain sync's progress, for `umbra status`.
 */
import { toHex } from '../../protocol/bytes.js';
import { noParams } from '../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../host/rpc/registry.js';
import type { P2pNode } from './p2p-node.js';

export function p2pMethods(node: P2pNode): RpcMethod[] {
  return [
    defineMethod({
      name: 'NODE.GetPeers',
      params: noParams,
      handler: () => {
        const now = Date.now();
        const sync = node.syncStatus();
        return {
          peers: node.peers().map((peer) => ({
            address: peer.toString(),
            direction: peer.direction,
            node_id: toHex(peer.hello!.nodeId),
            height: peer.height,
            latency_ms: peer.latencyMs ?? null,
            connected_seconds: Math.floor((now - peer.connectedAt) / 1000),
          })),
          sync: sync
            ? {
                height: sync.height,
                target_height: sync.target,
                percent: sync.percent,
                blocks_per_second: Number(sync.blocksPerSecond.toFixed(1)),
                eta_seconds: sync.etaSeconds === undefined ? null : Math.round(sync.etaSeconds),
              }
            : null,
          status: 'OK',
        };
      },
    }),
  ];
}
