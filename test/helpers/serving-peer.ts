/**
 * A raw peer that serves an honest in-process node's chain to a node under test — chain ids, headers and state
 * chunks and the blocks themselves, through the honest node's own services — optionally tampering with what it sends, serving smaller chunks
 * than asked for, or going silent after some chunks; it records the chunk requests it answered.
 */
import type { Test } from 'tap';
import { decodeBlock } from '../../protocol/block.js';
import { toHex } from '../../protocol/bytes.js';
import type { TrieChunk } from '../../host/services/snapshots.js';
import type { Message } from '../../plugins/p2p/wire/messages.js';
import type { TestNode } from './p2p.js';
import { peerClaimingChainOf, type RawPeer } from './raw-peer.js';

export interface ServingOptions {
  header?: (bytes: Uint8Array) => Uint8Array;
  chunk?: (chunk: TrieChunk) => TrieChunk;
  /** Work claimed above the honest node's (the node under test then takes this peer as its leader). */
  extraWork?: bigint;
  /** Leaves per chunk at most, whatever the request asks. */
  chunkLeaves?: number;
  /** Chunk requests answered before the peer goes silent. */
  answerChunks?: number;
}

export interface ServedChunk {
  /** `topoheight/trie/bits/prefix` of the request. */
  key: string;
  split: boolean;
  named: boolean;
}

export interface ServingPeer {
  peer: RawPeer;
  served: ServedChunk[];
  /** getHeaders requests received. */
  headerRequests: () => number;
}

export async function servingPeer(
  port: number,
  honest: TestNode,
  localAddress: string,
  t: Test,
  options: ServingOptions = {},
): Promise<ServingPeer> {
  const peer = await peerClaimingChainOf(port, localAddress, honest, options.extraWork ?? 0n);
  const snapshots = honest.app.container.cradle.snapshots;
  const served: ServedChunk[] = [];
  let headerRequests = 0;
  let handled = 0;
  const answer = (message: Message): void => {
    if (message.type === 'getChain') {
      const start = message.body.locator.map((id) => honest.chain.meta(id)).find((meta) => meta)!.height + 1n;
      const ids = [];
      for (let h = start; h <= honest.chain.top.height && ids.length < 500; h++)
        ids.push(honest.chain.metaAtTopo(h)!.id);
      peer.send('chain', { request: message.body.request, start: Number(start), ids });
    } else if (message.type === 'getHeaders') {
      headerRequests++;
      const blocks = message.body.ids.map((id) => (options.header ?? ((b) => b))(honest.chain.blockBytes(id)!));
      peer.send('headers', { request: message.body.request, blocks });
    } else if (message.type === 'getBlocks') {
      const blocks = message.body.ids.map((id) => ({
        block: honest.chain.blockBytes(id)!,
        txs: decodeBlock(honest.chain.blockBytes(id)!).txHashes.map((txid) => honest.chain.storedTransaction(txid)!),
      }));
      peer.send('blocks', { request: message.body.request, blocks });
    } else if (message.type === 'getChunk') {
      if (served.length >= (options.answerChunks ?? Number.POSITIVE_INFINITY)) return;
      const { topoheight, stateRoot, trie, bits, prefix, limit } = message.body;
      const source = { topoheight: BigInt(topoheight), stateRoot, trie };
      const honestChunk = snapshots.serveChunk(source, { bits, prefix }, Math.min(limit, options.chunkLeaves ?? limit));
      const chunk = (options.chunk ?? ((c) => c))(honestChunk);
      served.push({
        key: `${topoheight}/${toHex(trie)}/${bits}/${toHex(prefix)}`,
        split: chunk.split,
        named: trie.length > 0,
      });
      peer.send('chunk', { request: message.body.request, refused: '', ...chunk, split: chunk.split ? 1 : 0 });
    }
  };
  const timer = setInterval(() => {
    while (handled < peer.received.length) answer(peer.received[handled++]!);
  }, 5);
  t.teardown(() => {
    clearInterval(timer);
    return peer.close();
  });
  return { peer, served, headerRequests: () => headerRequests };
}
