/**
 * A network of in-process simulator daemons on loopback joined in a random graph whose every link is a delay relay
 * (delay-relay.ts) with a one-way delay drawn from 20–200 ms. Node i listens on 127.1.0.<i+1>; link l listens on
 * 127.2.<l>.1 and reaches its far node from 127.3.<l>.1, so the address a node learns of a neighbour by peer exchange
 * leads nowhere and traffic keeps to the links. It records when every block and miniblock reaches every node, can
 * split the network in two and heal it, and counts the bytes on its links. The network test and bench use it.
 */
import { toHex } from '../../protocol/bytes.js';
import { startNode, waitUntil, type TestNode } from '../../test/helpers/p2p.js';
import { delayRelay, type DelayRelay } from './delay-relay.js';

export interface WanOptions {
  size: number;
  /** Links per node on average (a ring, plus random chords). */
  degree: number;
  /** Seeds the graph and the delays, so that a run can be repeated. */
  seed: number;
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Flags for every daemon (startNode's). */
  flags?: Record<string, unknown>;
}

export interface WanLink {
  a: number;
  b: number;
  relay: DelayRelay;
}

export interface WanNetwork {
  nodes: TestNode[];
  links: WanLink[];
  /** Block id (hex) → the time it joined each node's chain (main or side), by node index. */
  blockArrivals: Map<string, Map<number, number>>;
  /** Miniblock (hex) → the time it joined each node's pool. */
  miniblockArrivals: Map<string, Map<number, number>>;
  /** Cuts every link between `side` and the rest. */
  partition(side: ReadonlySet<number>): void;
  heal(): void;
  /** Bytes that crossed the links so far. */
  bytes(): number;
  /** A new link from a new daemon to node `to` (the joiner dials it), with the given delay. */
  link(from: TestNode, to: number, delayMs: number, index: number): Promise<WanLink>;
  stop(): Promise<void>;
}

/** A small fast generator (mulberry32): the same seed gives the same graph and delays. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A connected random graph: the ring, then random chords until the average degree is reached. */
export function randomGraph(size: number, degree: number, random: () => number): [number, number][] {
  const key = (a: number, b: number): string => `${Math.min(a, b)}-${Math.max(a, b)}`;
  const edges = new Map<string, [number, number]>();
  for (let i = 0; i < size && size > 1; i++) edges.set(key(i, (i + 1) % size), [i, (i + 1) % size]);
  const target = Math.min(Math.floor((size * degree) / 2), (size * (size - 1)) / 2);
  while (edges.size < target) {
    const a = Math.floor(random() * size);
    const b = Math.floor(random() * size);
    if (a !== b && !edges.has(key(a, b))) edges.set(key(a, b), [a, b]);
  }
  return [...edges.values()];
}

export const nodeHost = (index: number): string => `127.1.0.${index + 1}`;

/** Dials until connected: with every node dialling at once, a far end may drop a first try while it is busy. */
async function dialWithRetries(node: TestNode, address: string, tries = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await node.p2p.connect(address);
      return;
    } catch (error) {
      if (attempt >= tries) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    }
  }
}

export async function startWanNetwork(options: WanOptions): Promise<WanNetwork> {
  const { size, degree, seed, minDelayMs = 20, maxDelayMs = 200, flags = {} } = options;
  const random = seeded(seed);
  const nodes: TestNode[] = [];
  for (let i = 0; i < size; i++)
    nodes.push(await startNode(`n${i}`, { p2pBind: `${nodeHost(i)}:0`, maxPeers: 3 * degree, ...flags }));
  const blockArrivals = new Map<string, Map<number, number>>();
  const miniblockArrivals = new Map<string, Map<number, number>>();
  const record = (table: Map<string, Map<number, number>>, key: string, index: number): void => {
    const times = table.get(key) ?? new Map<number, number>();
    if (!times.has(index)) times.set(index, Date.now());
    table.set(key, times);
  };
  const unsubscribe: (() => void)[] = [];
  nodes.forEach((node, index) => {
    unsubscribe.push(
      node.chain.onBlock((meta) => record(blockArrivals, toHex(meta.id), index)),
      node.mining.onMiniblock((blob) => record(miniblockArrivals, toHex(blob), index)),
    );
  });

  const links: WanLink[] = [];
  const relayTo = async (to: number, delayMs: number, index: number): Promise<DelayRelay> =>
    delayRelay(`127.2.${index}.1`, { host: nodeHost(to), port: nodes[to]!.p2p.port }, `127.3.${index}.1`, delayMs);
  const link = async (from: TestNode, to: number, delayMs: number, index: number): Promise<WanLink> => {
    const made = { a: nodes.indexOf(from), b: to, relay: await relayTo(to, delayMs, index) };
    links.push(made);
    await from.p2p.connect(made.relay.address);
    return made;
  };
  // Every relay first, then every dial at once: each link's own node takes it before others hear of its address.
  const graph = randomGraph(size, degree, random);
  for (const [index, [a, b]] of graph.entries())
    links.push({ a, b, relay: await relayTo(b, minDelayMs + random() * (maxDelayMs - minDelayMs), index) });
  await Promise.all(links.map(({ a, relay }) => dialWithRetries(nodes[a]!, relay.address)));
  await waitUntil(
    'every link completed its handshake',
    () => nodes.every((node, i) => node.p2p.peers().length >= links.filter((l) => l.a === i || l.b === i).length),
    60_000,
  );

  return {
    nodes,
    links,
    blockArrivals,
    miniblockArrivals,
    partition: (side) => {
      for (const { a, b, relay } of links) if (side.has(a) !== side.has(b)) relay.cut();
    },
    heal: () => {
      for (const { relay } of links) relay.restore();
    },
    bytes: () => links.reduce((sum, { relay }) => sum + relay.bytes(), 0),
    link,
    stop: async () => {
      for (const off of unsubscribe) off();
      await Promise.all(nodes.map((node) => node.app.stop()));
      await Promise.all(links.map(({ relay }) => relay.close()));
    },
  };
}
