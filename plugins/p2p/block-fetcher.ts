/**
 * Fetches a run of blocks by id from several peers at once and hands them over in the run's order. The run is cut
 * into batches; each peer that may serve it gets one batch at a time. A batch that times out, or comes back empty or
 * oversized, goes back to the queue for another peer, and its peer takes no further part (a stall is penalised); a
 * short answer leaves the rest of the batch queued. Batches are fetched at most a few ahead of the one next in
 * order, so a stalled batch holds up a bounded amount of memory.
 */
import type { BlockBody } from './block-intake.js';
import type { Peer } from './peer.js';

export interface FetchedBatch {
  peer: Peer;
  ids: Uint8Array[];
  blocks: BlockBody[];
}

export interface FetcherOptions {
  /** Blocks asked for per request. */
  batch: number;
  /** Batches fetched ahead of the next one in order (bounds the blocks held). */
  window: number;
  /** A peer was taken out of the fetch; `stalled` when it did not answer in time (the caller penalises that). */
  dropped(peer: Peer, reason: string, stalled: boolean): void;
}

/** A range [from, to) of the run's ids. */
interface Range {
  from: number;
  to: number;
}

export class BlockFetcher {
  private readonly queue: Range[] = [];
  private readonly fetched = new Map<number, FetchedBatch>();
  private readonly busy = new Map<Peer, Range>();
  private readonly dropped = new WeakSet<Peer>();
  /** Index of the next id to hand over. */
  private next = 0;
  private finished = false;
  private wake: () => void = () => {};

  /** `peers` lists the peers that may be asked (re-read whenever a peer is free, so that newcomers join in). */
  constructor(
    private readonly ids: Uint8Array[],
    private readonly peers: () => Peer[],
    private readonly options: FetcherOptions,
  ) {
    for (let from = 0; from < ids.length; from += options.batch)
      this.queue.push({ from, to: Math.min(ids.length, from + options.batch) });
  }

  /** Yields the fetched blocks in order; throws when no peer is left to fetch what is missing. */
  async *batches(): AsyncGenerator<FetchedBatch> {
    try {
      while (this.next < this.ids.length) {
        const ready = this.fetched.get(this.next);
        if (ready) {
          this.fetched.delete(this.next);
          this.next += ready.blocks.length;
          // The window moved on: free peers may take the next batches while this one is applied.
          this.pump();
          yield ready;
          continue;
        }
        const woken = new Promise<void>((resolve) => (this.wake = resolve));
        this.pump();
        if (this.busy.size === 0) throw new Error(`no peer serves the ${this.ids.length - this.next} missing blocks`);
        await woken;
      }
    } finally {
      this.finished = true;
    }
  }

  /** Gives queued batches to free peers; call when peers come. */
  pump(): void {
    if (this.finished) return;
    const limit = this.next + this.options.window * this.options.batch;
    for (const peer of this.peers()) {
      if (this.busy.has(peer) || this.dropped.has(peer) || peer.closed) continue;
      // The earliest range first: it is what holds up the hand-over.
      this.queue.sort((a, b) => a.from - b.from);
      const range = this.queue[0];
      if (!range || range.from >= limit) return;
      this.queue.shift();
      this.fetch(peer, range);
    }
  }

  private fetch(peer: Peer, range: Range): void {
    this.busy.set(peer, range);
    const ids = this.ids.slice(range.from, range.to);
    peer
      .request('getBlocks', { ids })
      .then(({ blocks }) => {
        if (blocks.length === 0) return this.drop(peer, range, `${peer} listed blocks it does not serve`, false);
        if (blocks.length > ids.length) {
          peer.violate(`answered a request for ${ids.length} blocks with ${blocks.length}`);
          return this.drop(peer, range, `${peer} sent more blocks than asked for`, false);
        }
        this.fetched.set(range.from, { peer, ids: ids.slice(0, blocks.length), blocks });
        // The peer may stop a large answer early; what it left out is asked for again.
        if (blocks.length < ids.length) this.queue.push({ from: range.from + blocks.length, to: range.to });
      })
      .catch((error: Error) => this.drop(peer, range, error.message, !peer.closed))
      .finally(() => {
        this.busy.delete(peer);
        this.pump();
        this.wake();
      });
  }

  /** Takes a peer out of this fetch and queues its range again. */
  private drop(peer: Peer, range: Range, reason: string, stalled: boolean): void {
    this.dropped.add(peer);
    this.queue.push(range);
    if (!this.finished) this.options.dropped(peer, reason, stalled);
  }
}
