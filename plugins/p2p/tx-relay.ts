/**
 * Transaction propagation through the `txPool` service, when one runs. Each transaction the pool admits (from RPC, or
 * fetched from a peer) is published whole on the `txs` gossip topic, whose check is the pool's admission: admitted,
 * gossipsub forwards it; already pending or mined, it is ignored; refused for any other reason, it is rejected (the
 * forwarder's gossipsub score drops; no ban points, since a transaction valid where it came from may have been
 * displaced meanwhile). A peer that completes its handshake is told of every pending txid with `newTxs`, and fetches
 * those it lacks with `getTxs`: gossip carries only what is new.
 */
import type { Logger } from '../../host/logger.js';
import { toHex } from '../../host/protocol/bytes.js';
import { TransactionError, TransactionErrorCode } from '../../host/protocol/transaction-errors.js';
import type { Peer } from './peer.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';
import { Verdict, type Gossip } from './gossip.js';
import { DATA_BODY_BUDGET, MAX_TX_IDS, type Body } from './wire/messages.js';

const TOPIC = 'txs';
const DUPLICATES: readonly string[] = [TransactionErrorCode.AlreadyPending, TransactionErrorCode.AlreadyInBlock];

export class TxRelay {
  private readonly fetching = new Set<string>();
  private unsubscribe: (() => void) | undefined;
  /** Set while a gossiped transaction enters the pool: gossipsub forwards that one, it is not published again. */
  private fromGossip = false;

  constructor(
    private readonly pool: () => TxPoolService | undefined,
    private readonly gossip: Gossip,
    private readonly logger: Logger,
  ) {}

  /** Joins the topic and publishes what the pool admits, when a pool runs. */
  start(): void {
    const pool = this.pool();
    if (!pool) return;
    this.gossip.subscribe(TOPIC, (bytes) => this.check(pool, bytes));
    this.unsubscribe = pool.onAdd(({ txid }) => {
      const bytes = pool.get(txid);
      if (bytes && !this.fromGossip) this.gossip.publish(TOPIC, bytes);
    });
  }

  stop(): void {
    this.unsubscribe?.();
  }

  /** Tells a peer that just completed its handshake of every pending transaction. */
  greet(peer: Peer): void {
    const ids = this.pool()?.pending() ?? [];
    for (const id of ids) peer.knownTxs.add(id);
    for (let at = 0; at < ids.length; at += MAX_TX_IDS) peer.send('newTxs', { ids: ids.slice(at, at + MAX_TX_IDS) });
  }

  private check(pool: TxPoolService, bytes: Uint8Array): Verdict {
    this.fromGossip = true;
    try {
      pool.add(bytes);
      return Verdict.Accept;
    } catch (error) {
      if (error instanceof TransactionError && DUPLICATES.includes(error.code)) return Verdict.Ignore;
      this.logger.debug(`gossiped transaction refused by the pool: ${(error as Error).message}`);
      return Verdict.Reject;
    } finally {
      this.fromGossip = false;
    }
  }

  async onNewTxs(peer: Peer, { ids }: Body<'newTxs'>): Promise<void> {
    for (const id of ids) peer.knownTxs.add(id);
    const pool = this.pool();
    if (!pool) return;
    const wanted = ids.filter((id) => !pool.get(id) && !this.fetching.has(toHex(id)));
    if (wanted.length === 0) return;
    for (const id of wanted) this.fetching.add(toHex(id));
    try {
      const { txs } = await peer.request('getTxs', { ids: wanted });
      for (const bytes of txs) {
        try {
          peer.knownTxs.add(pool.add(bytes));
        } catch (error) {
          this.logger.debug(`transaction from ${peer} refused by the pool: ${(error as Error).message}`);
        }
      }
    } catch (error) {
      this.logger.debug(`fetching transactions from ${peer}: ${(error as Error).message}`);
    } finally {
      for (const id of wanted) this.fetching.delete(toHex(id));
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
