/**
 * What the network bench needs of a network of nodes joined by delay relays, however the nodes run: in the bench's
 * own process on loopback (in-process-network.ts), or each as its own daemon process in a network namespace
 * (netns-network.ts). Arrivals are recorded as they happen; the bench reads them after each phase.
 */
import type { Core } from '../../core-native/ts/core.js';

/** Key (block id, miniblock or transaction id, hex) → node index → when it reached that node, ms since the epoch. */
export type Arrivals = Map<string, Map<number, number>>;

export interface NetworkUnderTest {
  readonly size: number;
  readonly core: Core;
  /** Block id → when it joined each node's chain (main or side). */
  readonly blockArrivals: Arrivals;
  /** Miniblock → when it joined each node's pool. */
  readonly miniblockArrivals: Arrivals;
  /** Transaction id → when each node announced it on gossip (its stem ended there, or it came by gossip). */
  readonly fluffs: Arrivals;
  /** Node `index`'s top block id (hex) and height. */
  top(index: number): { id: string; height: bigint };
  /** Node 0's main chain above `fromHeight`: its block ids (hex) and their total size in bytes. */
  mainChain(fromHeight: bigint): Promise<{ ids: string[]; bytes: number }>;
  /**
   * Mines on node `index`: takes its template and submits it, unless `found` (told whether the template is for a final
   * miniblock) says the work found does not meet it; true when it completed a block.
   */
  mine(index: number, found?: (final: boolean) => boolean): Promise<boolean>;
  /** Submits a transaction at node `index` as its own wallet would; resolves with its id (hex). */
  submit(index: number, tx: Uint8Array): Promise<string>;
  /** Cuts every link between `side` and the rest. */
  partition(side: ReadonlySet<number>): void;
  heal(): void;
  /** Bytes that crossed the links so far. */
  bytes(): number;
  /** The links: the nodes they join and their one-way delay, ms. */
  links(): { a: number; b: number; delayMs: number }[];
  /** Where node `index` listens for P2P. */
  p2pAddress(index: number): { host: string; port: number };
  /** `count` local addresses, none of them a node's or a link's, for strangers to connect from. */
  strangerAddresses(count: number): string[];
  /**
   * Starts a new node whose only link (one-way delay `delayMs`) goes to node `to`; resolves with the ms from its
   * dial (or, for a daemon process, the start of its P2P) to its first block, and stops it.
   */
  join(to: number, delayMs: number): Promise<number>;
  stop(): Promise<void>;
}

/** Records the first time `key` reached node `index`. */
export function recordArrival(table: Arrivals, key: string, index: number, at: number): void {
  const times = table.get(key) ?? new Map<number, number>();
  if (!times.has(index)) times.set(index, at);
  table.set(key, times);
}
