/**
 * Transaction propagation through the `txPool` service, when one runs. The pool has no change events, so pending
 * txids are announced on a short timer (and at once after a peer's transactions were admitted), each to the peers
 * not known to have it. Announced transactions this node lacks are fetched from the announcer and offered to the
 * pool; only those the pool admits are announced onwards. A refused transaction is not held against the sender: it
 * may have been mined or displaced meanwhile.
 */
import type { Logger } from '../../host/logger.js';
import { toHex } from '../../host/protocol/bytes.js';
import { InFlight } from './in-flight.js';
import type { Peer } from './peer.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';
import { DATA_BODY_BUDGET, MAX_TX_IDS, type Body } from './wire/messages.js';

/** Transaction requests open with one peer at once (each for up to MAX_TX_IDS ids). */
export const MAX_TX_FETCHES_PER_PEER = 4;

export class TxRelay {
  private readonly fetching = new Set<string>();
  private readonly open = new InFlight(MAX_TX_FETCHES_PER_PEER);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: () => TxPoolService | undefined,
    private readonly peers: () => Peer[],
    private readonly logger: Logger,
    private readonly announceMs: number,
  ) {}

  /** Starts announcing on the timer. */
  start(): void {
    this.timer = setInterval(() => this.announce(), this.announceMs).unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Announces every pending transaction to the peers not known to have it. */
  announce(): void {
    const pending = this.pool()?.pending();
    if (!pending?.length) return;
    for (const peer of this.peers()) {
      const ids = pending.filter((id) => !peer.knownTxs.has(id));
      for (const id of ids) peer.knownTxs.add(id);
      for (let at = 0; at < ids.length; at += MAX_TX_IDS) peer.send('newTxs', { ids: ids.slice(at, at + MAX_TX_IDS) });
    }
  }

  async onNewTxs(peer: Peer, { ids }: Body<'newTxs'>): Promise<void> {
    for (const id of ids) peer.knownTxs.add(id);
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

  /** Answers a getTxs request with the transactions the pool has, up to what fits in a frame. */
  serve(peer: Peer, request: Body<'getTxs'>): void {
    const pool = this.pool();
    const txs: Uint8Array[] = [];
    let size = 0;
    for (const id of request.ids) {
      const tx = pool?.get(id);
      if (!tx) continue;
      size += tx.length;
      if (size > DATA_BODY_BUDGET) break;
      txs.push(tx);
    }
    peer.send('txs', { request: request.request, txs });
  }
}
