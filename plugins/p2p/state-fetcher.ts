/**
 * Fetches one state — its meta trie and every trie the meta trie names — from peers, chunk by chunk, several chunks
 * per peer at once. Each chunk is proven against the trie's root (the snapshots service verifies and stores it): a
 * peer whose chunk fails is banned and the range goes to another peer; a peer that refuses (it does not hold this
 * state) or does not answer in time is asked no more. A subtree already stored whole (from an earlier state, or
 * before a restart) is not fetched again; the meta trie, small, is always fetched, since it leads to the named tries.
 */
import { toHex } from '../../protocol/bytes.js';
import { BadChunk, type ImportedChunk, type KeyRange, type SnapshotService } from '../../host/services/snapshots.js';
import { PENALTY } from './bans.js';
import type { Penalise } from './block-intake.js';
import { InFlight } from './in-flight.js';
import type { Peer } from './peer.js';
import type { Body } from './wire/messages.js';

/** Chunk requests open with one peer at once. */
const CHUNKS_PER_PEER = 4;
const WHOLE_TRIE: KeyRange = { bits: 0, prefix: new Uint8Array(0) };

export interface StateTarget {
  topoheight: bigint;
  stateRoot: Uint8Array;
  /**
   * Most leaves per chunk: large for a first state, small for the next ones, which share most subtrees with it (a
   * small chunk around each change, instead of a large one re-fetched whole).
   */
  chunkLeaves: number;
}

interface Item {
  /** The trie's name; empty for the meta trie. */
  trie: Uint8Array;
  trieRoot: Uint8Array;
  range: KeyRange;
  /** The hash the range's subtree must have. */
  hash: Uint8Array;
}

export class StateFetcher {
  private readonly queue: Item[] = [];
  private readonly open = new InFlight(CHUNKS_PER_PEER);
  private readonly excluded = new WeakSet<Peer>();
  private inFlight = 0;
  private settled = false;
  private finish: (error?: Error) => void = () => {};
  /** Leaves and chunks fetched so far. */
  leaves = 0;
  chunks = 0;

  constructor(
    private readonly snapshots: SnapshotService,
    private readonly target: StateTarget,
    /** Peers that may hold the state (re-read whenever one is free, so that newcomers join in). */
    private readonly peers: () => Peer[],
    private readonly penalise: Penalise,
    private readonly onProgress: () => void,
  ) {}

  run(): Promise<void> {
    const { stateRoot } = this.target;
    this.queue.push({ trie: new Uint8Array(0), trieRoot: stateRoot, range: WHOLE_TRIE, hash: stateRoot });
    return new Promise<void>((resolve, reject) => {
      this.finish = (error) => {
        if (this.settled) return;
        this.settled = true;
        if (error) reject(error);
        else resolve();
      };
      this.pump();
    });
  }

  /** Gives queued ranges to peers with a free slot; call when peers come. */
  pump(): void {
    if (this.settled) return;
    for (const peer of this.peers()) {
      if (this.excluded.has(peer) || peer.closed) continue;
      for (let item = this.nextItem(); item && this.open.begin(peer); item = this.nextItem()) {
        this.queue.shift();
        this.inFlight++;
        void this.fetch(peer, item).finally(() => {
          this.inFlight--;
          this.open.end(peer);
          this.pump();
        });
      }
    }
    if (this.inFlight > 0 || this.settled) return;
    if (!this.nextItem()) this.finish();
    else
      this.finish(
        new Error(`no peer serves the state ${toHex(this.target.stateRoot)} at topoheight ${this.target.topoheight}`),
      );
  }

  /** The first queued range still to fetch (ranges held whole meanwhile are dropped). */
  private nextItem(): Item | undefined {
    while (this.queue.length > 0) {
      const item = this.queue[0]!;
      if (item.trie.length === 0 || !this.snapshots.holdsSubtree(item.hash)) return item;
      this.queue.shift();
    }
    return undefined;
  }

  private async fetch(peer: Peer, item: Item): Promise<void> {
    const isMeta = item.trie.length === 0;
    let answer: Body<'chunk'>;
    try {
      answer = await peer.request('getChunk', {
        topoheight: Number(this.target.topoheight),
        stateRoot: this.target.stateRoot,
        trie: item.trie,
        bits: item.range.bits,
        prefix: item.range.prefix,
        limit: this.target.chunkLeaves,
      });
    } catch (error) {
      this.exclude(peer, item);
      if (!peer.closed) this.penalise(peer, PENALTY.stalled, (error as Error).message);
      return;
    }
    if (answer.refused) return this.exclude(peer, item);
    let imported: ImportedChunk;
    try {
      const chunk = { path: answer.path, leaves: answer.leaves, split: answer.split === 1 };
      imported = await this.snapshots.importChunk(item.trieRoot, isMeta, item.range, chunk);
    } catch (error) {
      this.exclude(peer, item);
      if (!(error instanceof BadChunk)) return this.finish(error as Error);
      return this.penalise(peer, PENALTY.invalidData, `sent a state chunk that does not prove: ${error.message}`);
    }
    for (const { range, hash } of imported.next)
      this.queue.push({ trie: item.trie, trieRoot: item.trieRoot, range, hash });
    for (const { name, root } of imported.tries)
      this.queue.push({ trie: name, trieRoot: root, range: WHOLE_TRIE, hash: root });
    this.leaves += imported.leaves;
    this.chunks++;
    this.onProgress();
  }

  private exclude(peer: Peer, item: Item): void {
    this.excluded.add(peer);
    this.queue.unshift(item);
  }
}
