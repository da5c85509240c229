/**
 * Transaction propagation through the `txPool` service, when one runs, in two phases (Dandelion++, docs/protocol.md
 * "Private transaction relay"). Stem: a transaction submitted to this node, or received in a `stemTx`, is passed
 * whole to one stem successor and published to nobody; it stays out of `newTxs` and `getTxs` answers, and out of
 * this node's block templates (the pool holds it back), until it is fluffed — by a fluffer node, a node without
 * another peer, a full stem, a stem that came back with no peer off it left, or its embargo running out unseen. A
 * stem that comes back to a node already holding the transaction goes on to a peer not yet on it. Fluff:
 * the transaction is published whole on the `txs` gossip topic, whose check is the pool's admission: admitted,
 * gossipsub forwards it; already pending or mined, it is ignored (unless this node held it in the stem: that ends the
 * stem, and the message is forwarded); refused for any
 * other reason, it is rejected (the forwarder's gossipsub score drops; no ban points, since a transaction valid where
 * it came from may have been displaced meanwhile). A peer that completes its handshake is told of every pending,
 * fluffed txid with `newTxs`, and fetches those it lacks with `getTxs`: gossip carries only what is new.
 */
import type { Logger } from '../../host/logger.js';
import { toHex } from '../../protocol/bytes.js';
import { TransactionError, TransactionErrorCode } from '../../protocol/transaction-errors.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';
import { Dandelion, type DandelionSettings } from './dandelion.js';
import { Verdict, type Gossip } from './gossip.js';
import { InFlight } from './in-flight.js';
import type { Peer } from './peer.js';
import { RateLimit } from './rate-limit.js';
import { DATA_BODY_BUDGET, MAX_TX_IDS, type Body } from './wire/messages.js';

const TOPIC = 'txs';
const DUPLICATES: readonly string[] = [TransactionErrorCode.AlreadyPending, TransactionErrorCode.AlreadyInBlock];

/** Transaction requests open with one peer at once (each for up to MAX_TX_IDS ids). */
export const MAX_TX_FETCHES_PER_PEER = 4;

export interface TxRelayDeps {
  pool: () => TxPoolService | undefined;
  gossip: Gossip;
  peers: () => Peer[];
  logger: Logger;
}

export class TxRelay {
  private readonly fetching = new Set<string>();
  private readonly dandelion: Dandelion<Peer>;
  private readonly stemLimit: RateLimit<Peer>;
  private readonly open = new InFlight(MAX_TX_FETCHES_PER_PEER);
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Set while a gossiped or stem transaction enters the pool: that one is not published on admission. */
  private admittingRelayed = false;

  constructor(
    private readonly deps: TxRelayDeps,
    private readonly checkMs: number,
    settings: DandelionSettings,
  ) {
    this.dandelion = new Dandelion(settings);
    this.stemLimit = new RateLimit(settings.stemTxsPerSecond, settings.stemTxBurst);
  }

  /**
   * Joins the topic, stems the transactions submitted to this node and publishes the others the pool admits, and
   * starts the timer of embargoes and re-routing.
   */
  start(): void {
    const pool = this.deps.pool();
    if (!pool) return;
    this.deps.gossip.subscribe(TOPIC, (bytes, from) => this.check(pool, bytes, from));
    this.unsubscribe = pool.onAdd(({ txid, local }) => {
      if (local) this.stem(txid, undefined);
      else if (!this.admittingRelayed) this.publish(txid);
    });
    this.timer = setInterval(() => this.tick(), this.checkMs).unref();
  }

  stop(): void {
    this.unsubscribe?.();
    clearInterval(this.timer);
  }

  /** Tells a peer that just completed its handshake of every pending transaction that is not in the stem. */
  greet(peer: Peer): void {
    const ids = (this.deps.pool()?.pending() ?? []).filter((id) => !this.dandelion.isStem(id));
    for (const id of ids) peer.knownTxs.add(id);
    for (let at = 0; at < ids.length; at += MAX_TX_IDS) peer.send('newTxs', { ids: ids.slice(at, at + MAX_TX_IDS) });
  }

  async onNewTxs(peer: Peer, { ids }: Body<'newTxs'>): Promise<void> {
    for (const id of ids) {
      peer.knownTxs.add(id);
      // Someone announced it: its stem is over.
      if (this.endStem(id)) this.deps.logger.debug(`transaction ${toHex(id)} seen fluffed by ${peer}`);
    }
    const pool = this.deps.pool();
    if (!pool) return;
    const wanted = ids.filter((id) => !pool.get(id) && !this.fetching.has(toHex(id)));
    if (wanted.length === 0 || !this.open.begin(peer)) return;
    for (const id of wanted) this.fetching.add(toHex(id));
    try {
      const { txs } = await peer.request('getTxs', { ids: wanted });
      // Admitted in batches, their proofs verified together on the verification workers.
      await Promise.all(
        txs.map((bytes) =>
          pool.addBatched(bytes).then(
            (txid) => peer.knownTxs.add(txid),
            (error: Error) => this.deps.logger.debug(`transaction from ${peer} refused by the pool: ${error.message}`),
          ),
        ),
      );
    } catch (error) {
      this.deps.logger.debug(`fetching transactions from ${peer}: ${(error as Error).message}`);
    } finally {
      for (const id of wanted) this.fetching.delete(toHex(id));
      this.open.end(peer);
    }
  }

  /**
   * A transaction in its stem phase from `peer`: offered to the pool (a refused one goes no further), then passed on
   * along the stem, or fluffed when this node is a fluffer this epoch.
   */
  onStemTx(peer: Peer, { tx }: Body<'stemTx'>): void {
    const pool = this.deps.pool();
    if (!pool) return;
    if (!this.stemLimit.take(peer, Date.now()))
      return this.deps.logger.debug(`stem transaction from ${peer} dropped: over its rate limit`);
    let txid: Uint8Array;
    try {
      txid = this.admitRelayed(pool, tx);
    } catch (error) {
      if (error instanceof TransactionError && error.code === TransactionErrorCode.AlreadyPending)
        return this.stemCameBack(pool.txidOf(tx), peer);
      return this.deps.logger.debug(`stem transaction from ${peer} refused by the pool: ${(error as Error).message}`);
    }
    if (this.dandelion.isFluffer(Date.now())) return this.fluff(txid, 'this node fluffs this epoch');
    this.stem(txid, peer);
  }

  /**
   * A stem transaction this node has already, from `peer`: its stem looped back here. Held in the stem, it goes on to
   * a peer not yet on its stem, or is fluffed when none remains; already fluffed here, gossip carries it.
   */
  private stemCameBack(txid: Uint8Array, peer: Peer): void {
    const hex = toHex(txid);
    if (!this.dandelion.isStem(txid))
      return this.deps.logger.debug(`stem transaction ${hex} from ${peer}: already fluffed here`);
    const to = this.dandelion.detour(txid, peer, this.deps.peers());
    if (!to) return this.fluff(txid, `its stem came back from ${peer} and no peer off the stem remains`);
    this.deps.logger.debug(`stem transaction ${hex} came back from ${peer}: the stem goes on`);
    this.sendStem(txid, to);
  }

  /** Answers a getTxs request with the fluffed transactions the pool has, up to what fits in a frame. */
  serve(peer: Peer, request: Body<'getTxs'>): void {
    const pool = this.deps.pool();
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
   * The gossip topic's check: the pool's admission. A copy of a transaction this node holds in the stem ends its stem
   * here and is forwarded; any other duplicate is ignored.
   */
  private check(pool: TxPoolService, bytes: Uint8Array, from: string): Verdict {
    try {
      const txid = this.admitRelayed(pool, bytes);
      const forwarder = this.deps.peers().find((peer) => peer.peerId === from) ?? from;
      this.deps.logger.debug(`transaction ${toHex(txid)} came by gossip from ${forwarder}`);
      return Verdict.Accept;
    } catch (error) {
      if (error instanceof TransactionError && DUPLICATES.includes(error.code)) {
        const txid = pool.txidOf(bytes);
        if (!this.endStem(txid)) return Verdict.Ignore;
        // This node held it in the stem, so its own peers may lack it: the fluff goes on from here.
        this.deps.logger.debug(`transaction ${toHex(txid)} seen fluffed by gossip`);
        return Verdict.Accept;
      }
      this.deps.logger.debug(`gossiped transaction refused by the pool: ${(error as Error).message}`);
      return Verdict.Reject;
    }
  }

  private admitRelayed(pool: TxPoolService, bytes: Uint8Array): Uint8Array {
    this.admittingRelayed = true;
    try {
      return pool.add(bytes);
    } finally {
      this.admittingRelayed = false;
    }
  }

  /**
   * Passes a pooled transaction along the stem (from `from`, undefined: this node's own), or fluffs it. An own
   * transaction of a node without peers is held all the same: it takes the stem once a peer is up, or its embargo
   * runs out, rather than being published to the first peer to connect.
   */
  private stem(txid: Uint8Array, from: Peer | undefined): void {
    const now = Date.now();
    const to = this.dandelion.successor(from, this.deps.peers(), now);
    if (!to && from) return this.fluff(txid, 'no stem successor');
    if (!this.dandelion.hold(txid, from, to, now)) return this.fluff(txid, 'the stem is full');
    if (to) this.sendStem(txid, to);
  }

  /** Sends a held transaction to `to` on the stem; from then on this node's templates leave it out until the fluff. */
  private sendStem(txid: Uint8Array, to: Peer): void {
    const pool = this.deps.pool();
    const tx = pool?.get(txid);
    if (!tx) return void this.endStem(txid);
    pool!.holdBack(txid);
    this.deps.logger.debug(`stem transaction ${toHex(txid)} sent to ${to}`);
    to.send('stemTx', { tx });
  }

  private fluff(txid: Uint8Array, why: string): void {
    this.deps.logger.debug(`fluffing transaction ${toHex(txid)}: ${why}`);
    this.endStem(txid);
    this.publish(txid);
  }

  /** Stops holding a transaction in the stem, and lets the pool's templates take it; true when it was held. */
  private endStem(txid: Uint8Array): boolean {
    this.deps.pool()?.stopHolding(txid);
    return this.dandelion.release(txid);
  }

  private publish(txid: Uint8Array): void {
    const bytes = this.deps.pool()?.get(txid);
    if (bytes) this.deps.gossip.publish(TOPIC, bytes);
  }

  /**
   * Ends the stems of transactions that left the pool (mined, or dropped: nothing left to hide nor to spread), fluffs
   * those whose embargo ran out, and routes those whose successor left (or who had none).
   */
  private tick(): void {
    const pool = this.deps.pool();
    for (const txid of this.dandelion.held())
      if (!pool?.has(txid)) {
        this.endStem(txid);
        this.deps.logger.debug(`stem of transaction ${toHex(txid)} ended: it left the pool`);
      }
    const now = Date.now();
    for (const txid of this.dandelion.expired(now)) this.fluff(txid, 'its embargo ran out');
    const peers = this.deps.peers();
    for (const route of this.dandelion.stranded(peers)) {
      const to = this.dandelion.successor(route.from, peers, now);
      if (to) {
        this.dandelion.sentTo(route, to);
        this.sendStem(route.txid, to);
      } else if (route.from) this.fluff(route.txid, 'its stem successor left and none remains');
      // else an own transaction waits for a peer (or its embargo)
    }
  }
}
