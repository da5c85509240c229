/**
 * Dandelion++ routing state (Fanti et al. 2018), without I/O: the epochs, each epoch's role (stem relay or fluffer)
 * and stem successors, and the transactions held in the stem with their embargo deadlines. Time and randomness come
 * from the caller, so the choices can be tested. docs/protocol.md ("P2P", "Private transaction relay") tells why.
 */
import { toHex } from '../../protocol/bytes.js';

export interface DandelionSettings {
  /** An epoch lasts epochMs plus up to epochJitterMs at random, so that nodes do not switch in step. */
  epochMs: number;
  epochJitterMs: number;
  /** Chance that the node fluffs (announces) every stem transaction it receives for a whole epoch. */
  fluffProbability: number;
  /** Stem successors picked per epoch; each predecessor is tied to one (2 approximates the paper's 4-regular graph). */
  successors: number;
  /** A stem transaction not seen fluffed within embargoMinMs plus an exponential delay (mean embargoMeanMs) is fluffed. */
  embargoMinMs: number;
  embargoMeanMs: number;
  /** Transactions held in the stem at once; beyond it they are fluffed at once. */
  maxStemTxs: number;
  /** Stem transactions accepted from one peer: a sustained rate and a burst. */
  stemTxsPerSecond: number;
  stemTxBurst: number;
}

export const DEFAULT_DANDELION: DandelionSettings = {
  epochMs: 600_000,
  epochJitterMs: 30_000,
  fluffProbability: 0.1,
  successors: 2,
  embargoMinMs: 25_000,
  embargoMeanMs: 15_000,
  maxStemTxs: 1000,
  stemTxsPerSecond: 10,
  stemTxBurst: 50,
};

/** The longest embargo, in means above the minimum: the exponential's tail is cut so a held transaction never lingers. */
const EMBARGO_TAIL_MEANS = 5;

/** What the routing needs of a peer: who dialled (outgoing successors are preferred, as in the paper). */
export interface StemPeer {
  readonly direction: 'incoming' | 'outgoing';
}

/**
 * A transaction held in the stem: who sent it (undefined: this node's own), where it went (undefined: nowhere yet, an
 * own transaction of a node without peers), the peers known to have it on its stem, and its embargo.
 */
export interface StemRoute<P> {
  readonly txid: Uint8Array;
  readonly from: P | undefined;
  to: P | undefined;
  readonly onStem: Set<P>;
  readonly fluffAt: number;
}

interface Epoch<P> {
  endsAt: number;
  fluffer: boolean;
  successors: P[];
  /** Predecessor (undefined: this node) → the successor its stem transactions go to, fixed for the epoch. */
  assigned: Map<P | undefined, P>;
}

export class Dandelion<P extends StemPeer> {
  private epoch: Epoch<P> | undefined;
  private readonly stems = new Map<string, StemRoute<P>>();

  constructor(
    readonly settings: DandelionSettings,
    private readonly random: () => number = Math.random,
  ) {}

  /** Whether, this epoch, the node fluffs the stem transactions it receives instead of passing them on. */
  isFluffer(now: number): boolean {
    return this.current(now).fluffer;
  }

  /**
   * The peer a stem transaction from `from` (undefined: this node's own) goes to, among the ready `peers`; undefined
   * when there is none besides the sender (the transaction is then fluffed). The same predecessor gets the same
   * successor for the whole epoch, unless that successor leaves.
   */
  successor(from: P | undefined, peers: readonly P[], now: number): P | undefined {
    const epoch = this.current(now);
    epoch.successors = epoch.successors.filter((peer) => peers.includes(peer));
    if (epoch.successors.length < this.settings.successors)
      epoch.successors.push(...this.pick(peers, epoch.successors, this.settings.successors - epoch.successors.length));
    for (const [key, to] of epoch.assigned)
      if ((key && !peers.includes(key)) || !peers.includes(to)) epoch.assigned.delete(key);
    let to = epoch.assigned.get(from);
    if (!to) {
      const others = (list: readonly P[]): P[] => list.filter((peer) => peer !== from);
      to = this.any(others(epoch.successors)) ?? this.any(others(peers));
      if (to) epoch.assigned.set(from, to);
    }
    return to;
  }

  /** A random embargo length, ms. */
  embargoMs(): number {
    const { embargoMinMs, embargoMeanMs } = this.settings;
    const exponential = -Math.log(1 - this.random()) * embargoMeanMs;
    return embargoMinMs + Math.min(exponential, EMBARGO_TAIL_MEANS * embargoMeanMs);
  }

  /** Holds a transaction sent along the stem to `to`; false when the stem is full (fluff it instead). */
  hold(txid: Uint8Array, from: P | undefined, to: P | undefined, now: number): boolean {
    if (this.stems.size >= this.settings.maxStemTxs) return false;
    const onStem = new Set<P>([from, to].filter((peer) => peer !== undefined));
    this.stems.set(toHex(txid), { txid, from, to, onStem, fluffAt: now + this.embargoMs() });
    return true;
  }

  /** Records that a held transaction went (again) to `to`, its successor from now on. */
  sentTo(route: StemRoute<P>, to: P): void {
    route.to = to;
    route.onStem.add(to);
  }

  /**
   * Where a held transaction goes when its stem came back to this node from `from` (a loop, as the stem graph of a
   * small or dense network makes likely): a random ready peer that is not on its stem as this node knows it — not
   * its predecessor, none it was sent to, none that sent it back — recorded as its successor. Undefined when the
   * transaction is not held, or no such peer remains (the caller fluffs it).
   */
  detour(txid: Uint8Array, from: P, peers: readonly P[]): P | undefined {
    const route = this.stems.get(toHex(txid));
    if (!route) return undefined;
    route.onStem.add(from);
    const to = this.any(peers.filter((peer) => !route.onStem.has(peer)));
    if (to) this.sentTo(route, to);
    return to;
  }

  isStem(txid: Uint8Array): boolean {
    return this.stems.has(toHex(txid));
  }

  /** The txids held in the stem. */
  held(): Uint8Array[] {
    return [...this.stems.values()].map((route) => route.txid);
  }

  /** Stops holding a transaction (it was seen fluffed, or is gone); true when it was held. */
  release(txid: Uint8Array): boolean {
    return this.stems.delete(toHex(txid));
  }

  /** The held transactions whose embargo has run out, released: the caller fluffs them. */
  expired(now: number): Uint8Array[] {
    const due = [...this.stems.values()].filter((route) => route.fluffAt <= now);
    for (const route of due) this.stems.delete(toHex(route.txid));
    return due.map((route) => route.txid);
  }

  /** The held transactions whose successor is not among `peers` (or who have none): to route (update `to`) or fluff. */
  stranded(peers: readonly P[]): StemRoute<P>[] {
    return [...this.stems.values()].filter((route) => !route.to || !peers.includes(route.to));
  }

  get size(): number {
    return this.stems.size;
  }

  private current(now: number): Epoch<P> {
    if (!this.epoch || now >= this.epoch.endsAt) {
      const { epochMs, epochJitterMs, fluffProbability } = this.settings;
      this.epoch = {
        endsAt: now + epochMs + Math.floor(this.random() * epochJitterMs),
        fluffer: this.random() < fluffProbability,
        successors: [],
        assigned: new Map(),
      };
    }
    return this.epoch;
  }

  /** Up to `count` random peers not in `taken`, outgoing ones first. */
  private pick(peers: readonly P[], taken: readonly P[], count: number): P[] {
    const free = peers.filter((peer) => !taken.includes(peer));
    const shuffled = (list: P[]): P[] =>
      list
        .map((peer) => ({ peer, key: this.random() }))
        .sort((a, b) => a.key - b.key)
        .map(({ peer }) => peer);
    const outgoing = shuffled(free.filter((peer) => peer.direction === 'outgoing'));
    const incoming = shuffled(free.filter((peer) => peer.direction === 'incoming'));
    return [...outgoing, ...incoming].slice(0, count);
  }

  private any(list: readonly P[]): P | undefined {
    return list.length ? list[Math.floor(this.random() * list.length)] : undefined;
  }
}
