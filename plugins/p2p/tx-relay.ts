/**
 * Transaction propagation through the `txPool` service, when one runs, in two phases (Dandelion++, docs/protocol.md
 * "Private transaction relay"). Stem: a transaction submitted to this node, or received in a `stemTx`, is passed
 * whole to one stem successor and announced to nobody; it stays out of announcements and `getTxs` answers until it
 * is fluffed — by a fluffer node, a node without another peer, a full stem, or its embargo running out unseen.
 * Fluff: pending txids are announced on a short timer (and at once after a peer's transactions were admitted), each
 * to the peers not known to have it. Announced transactions this node lacks are fetched from the announcer and
 * offered to the pool; only those the pool admits travel on. A refused transaction is not held against the sender:
 * it may have been mined or displaced meanwhile.
 */
import type { Logger } from '../../host/logger.js';
import { toHex } from '../../host/protocol/bytes.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';
import { Dandelion, type DandelionSettings } from './dandelion.js';
import { InFlight } from './in-flight.js';
import type { Peer } from './peer.js';
import { RateLimit } from './rate-limit.js';
import { DATA_BODY_BUDGET, MAX_TX_IDS, type Body } from './wire/messages.js';

/** Transaction requests open with one peer at once (each for up to MAX_TX_IDS ids). */
export const MAX_TX_FETCHES_PER_PEER = 4;

export class TxRelay {
  private readonly fetching = new Set<string>();
  private readonly dandelion: Dandelion<Peer>;
  private readonly stemLimit: RateLimit<Peer>;
  private readonly open = new InFlight(MAX_TX_FETCHES_PER_PEER);
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly pool: () => TxPoolService | undefined,
    private readonly peers: () => Peer[],
    private readonly logger: Logger,
    private readonly announceMs: number,
    settings: DandelionSettings,
  ) {
    this.dandelion = new Dandelion(settings);
    this.stemLimit = new RateLimit(settings.stemTxsPerSecond, settings.stemTxBurst);
  }

  /** Starts stemming the transactions submitted to this node, and the timer (announcements, embargoes, re-routing). */
  start(): void {
    this.unsubscribe = this.pool()?.onAdd((entry) => {
      if (entry.local) this.stem(entry.txid, undefined);
    });
    this.timer = setInterval(() => this.tick(), this.announceMs).unref();
  }

  stop(): void {
    this.unsubscribe?.();
    clearInterval(this.timer);
  }

  /** Announces every pending transaction that is not in the stem to the peers not known to have it. */
  announce(): void {
    const pending = this.pool()
      ?.pending()
      .filter((id) => !this.dandelion.isStem(id));
    if (!pending?.length) return;
    for (const peer of this.peers()) {
      const ids = pending.filter((id) => !peer.knownTxs.has(id));
      for (const id of ids) peer.knownTxs.add(id);
      for (let at = 0; at < ids.length; at += MAX_TX_IDS) peer.send('newTxs', { ids: ids.slice(at, at + MAX_TX_IDS) });
    }
  }

  async onNewTxs(peer: Peer, { ids }: Body<'newTxs'>): Promise<void> {
    let fluffed = false;
    for (const id of ids) {
      peer.knownTxs.add(id);
      // Someone announced it: its stem is over, and this node may announce it too.
      if (this.dandelion.release(id)) {
        this.logger.debug(`transaction ${toHex(id)} seen fluffed by ${peer}`);
        fluffed = true;
      }
    }
    if (fluffed) this.announce();
    const pool = this.pool();
    if (!pool) return;
    const wanted = ids.filter((id) => !pool.get(id) && !this.fetching.has(toHex(id)));
    if (wanted.length === 0 || !this.open.begin(peer)) return;
    for (const id of wanted) this.fetching.add(toHex(id));
    try {
      const { txs } = await peer.request('getTxs', { ids: wanted });
      let admitted = 0;
      for (const bytes of txs) {
        try {
          peer.knownTxs.add(pool.add(bytes));
          admitted++;
        } catch (error) {
          this.logger.debug(`transaction from ${peer} refused by the pool: ${(error as Error).message}`);
        }
      }
      if (admitted > 0) this.announce();
    } catch (error) {
      this.logger.debug(`fetching transactions from ${peer}: ${(error as Error).message}`);
    } finally {
      for (const id of wanted) this.fetching.delete(toHex(id));
      this.open.end(peer);
    }
  }

  /**
   * A transaction in its stem phase from `peer`: offered to the pool (a refused one goes no further), then passed on
   * along the stem, or fluffed when this node is a fluffer this epoch. The sender is not marked as knowing it, so
   * that the fluff's announcement travels back along the stem and ends the embargoes there.
   */
  onStemTx(peer: Peer, { tx }: Body<'stemTx'>): void {
    const pool = this.pool();
    if (!pool) return;
    if (!this.stemLimit.take(peer, Date.now()))
      return this.logger.debug(`stem transaction from ${peer} dropped: over its rate limit`);
    let txid: Uint8Array;
    try {
      txid = pool.add(tx);
    } catch (error) {
      return this.logger.debug(`stem transaction from ${peer} refused by the pool: ${(error as Error).message}`);
    }
    if (this.dandelion.isFluffer(Date.now())) return this.fluff(txid, 'this node fluffs this epoch');
    this.stem(txid, peer);
  }

  /** Answers a getTxs request with the fluffed transactions the pool has, up to what fits in a frame. */
  serve(peer: Peer, request: Body<'getTxs'>): void {
    const pool = this.pool();
    const txs: Uint8Array[] = [];
    let size = 0;
    for (const id of request.ids) {
      const tx = this.dandelion.isStem(id) ? undefined : pool?.get(id);
      if (!tx) continue;
      size += tx.length;
      if (size > DATA_BODY_BUDGET) break;
      txs.push(tx);
    }
    peer.send('txs', { request: request.request, txs });
  }

  /**
   * Passes a pooled transaction along the stem (from `from`, undefined: this node's own), or fluffs it. An own
   * transaction of a node without peers is held all the same: it takes the stem once a peer is up, or its embargo
   * runs out, rather than being announced to the first peer to connect.
   */
  private stem(txid: Uint8Array, from: Peer | undefined): void {
    const now = Date.now();
    const to = this.dandelion.successor(from, this.peers(), now);
    if (!to && from) return this.fluff(txid, 'no stem successor');
    if (!this.dandelion.hold(txid, from, to, now)) return this.fluff(txid, 'the stem is full');
    if (to) this.sendStem(txid, to);
  }

  private sendStem(txid: Uint8Array, to: Peer): void {
    const tx = this.pool()?.get(txid);
    if (!tx) return void this.dandelion.release(txid);
    this.logger.debug(`stem transaction ${toHex(txid)} sent to ${to}`);
    to.send('stemTx', { tx });
  }

  private fluff(txid: Uint8Array, why: string): void {
    this.logger.debug(`fluffing transaction ${toHex(txid)}: ${why}`);
    this.announce();
  }

  /** Fluffs the stem transactions whose embargo ran out, routes those whose successor left (or who had none), announces. */
  private tick(): void {
    const now = Date.now();
    const expired = this.dandelion.expired(now);
    for (const txid of expired) this.logger.debug(`embargo of transaction ${toHex(txid)} ran out: fluffing it`);
    const peers = this.peers();
    for (const route of this.dandelion.stranded(peers)) {
      const to = this.dandelion.successor(route.from, peers, now);
      if (to) {
        route.to = to;
        this.sendStem(route.txid, to);
      } else if (route.from) {
        this.dandelion.release(route.txid);
        this.logger.debug(`fluffing transaction ${toHex(route.txid)}: its stem successor left and none remains`);
      } // else an own transaction waits for a peer (or its embargo)
    }
    this.announce();
  }
}
