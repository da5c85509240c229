/**
 * The serving side of fast sync: blocks without their transactions (a header chain to check), and proven chunks of
 * the state tries (docs/protocol.md § State snapshots). A chunk of a state this node does not hold — before its
 * history floor, pruned, or not on its main chain — is refused with the reason, never answered with a bad proof.
 */
import type { ChainService } from '../../host/services/chain.js';
import { SnapshotRefused, type SnapshotService } from '../../host/services/snapshots.js';
import type { Peer } from './peer.js';
import { DATA_BODY_BUDGET, type Body } from './wire/messages.js';

export class SnapshotServer {
  constructor(
    private readonly chain: ChainService,
    private readonly snapshots: SnapshotService,
  ) {}

  /** Answers getHeaders with the blocks this node has, in order, stopping before the frame grows too big. */
  serveHeaders(peer: Peer, request: Body<'getHeaders'>): void {
    const blocks: Uint8Array[] = [];
    let size = 0;
    for (const id of request.ids) {
      const bytes = this.chain.blockBytes(id);
      if (!bytes) break;
      size += bytes.length;
      if (blocks.length > 0 && size > DATA_BODY_BUDGET) break;
      blocks.push(bytes);
    }
    peer.send('headers', { request: request.request, blocks });
  }

  serveChunk(peer: Peer, request: Body<'getChunk'>): void {
    const { topoheight, stateRoot, trie, bits, prefix, limit } = request;
    try {
      const source = { topoheight: BigInt(topoheight), stateRoot, trie };
      const chunk = this.snapshots.serveChunk(source, { bits, prefix }, limit);
      peer.send('chunk', { request: request.request, refused: '', ...chunk, split: chunk.split ? 1 : 0 });
    } catch (error) {
      if (!(error instanceof SnapshotRefused)) throw error;
      peer.send('chunk', { request: request.request, refused: error.message, path: [], leaves: [], split: 0 });
    }
  }
}
