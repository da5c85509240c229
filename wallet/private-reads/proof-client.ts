/**
 * The daemon calls proven reads are made of (docs/rpc.md § NODE.GetStateProof, § NODE.GetRangeHistory, § NODE.GetBlock,
 * § NODE.GetTransaction), over the wallet's JSON-RPC client. Proofs come back as the daemon sent them: the verifiers in
 * protocol/state/ read them strictly; blocks and transactions are read here, strictly, to bytes.
 */
import { fromHex, isWholeBytesHex, toHex } from '../../protocol/bytes.js';
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import type { KeyRange } from '../../protocol/state/range-check.js';
import { DaemonRpcError, type DaemonClient } from '../daemon-client.js';
import { proofRefused, readFailure } from './read-refusal.js';

/** One range of one trie at one state, at most `limit` leaves to an answer. */
export interface StateProofRequest {
  trie: Uint8Array;
  range: KeyRange;
  topoheight: bigint;
  limit: number;
}

/** A transaction as NODE.GetTransaction serves it. */
export interface ServedTransaction {
  bytes: Uint8Array;
  outcome?: ContractCallOutcome;
}

/** Most leaves a NODE.GetStateProof answer holds (the daemon's bound); a larger range comes back split. */
export const MAX_PROOF_LEAVES_PER_ANSWER = 1024;

/** The daemon's limits: calls to a batch, transactions to a NODE.GetTransaction call. */
const BATCH_LIMIT = 1000;

const rangeParams = (trie: Uint8Array, range: KeyRange) => ({
  trie: toHex(trie),
  bits: range.bits,
  ...(range.bits === 0 ? {} : { prefix: toHex(range.prefix) }),
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class ProofClient {
  constructor(private readonly daemon: DaemonClient) {}

  get url(): string {
    return this.daemon.url;
  }

  /** NODE.GetStateProof for each request, in one batch per thousand; the answers unread, in order. */
  async stateProofs(requests: readonly StateProofRequest[]): Promise<unknown[]> {
    const answers: unknown[] = [];
    for (let i = 0; i < requests.length; i += BATCH_LIMIT) {
      const calls = requests.slice(i, i + BATCH_LIMIT).map(({ trie, range, topoheight, limit }) => ({
        method: 'NODE.GetStateProof',
        params: { ...rangeParams(trie, range), topoheight: Number(topoheight), limit },
      }));
      const results = await this.calling('NODE.GetStateProof', () => this.daemon.batch(calls));
      const refusal = results.find((result) => result instanceof DaemonRpcError);
      if (refusal) throw readFailure(this.url, 'NODE.GetStateProof', refusal);
      answers.push(...results);
    }
    return answers;
  }

  /** NODE.GetRangeHistory of a balance range over (from, to]; the answer unread. */
  rangeHistory(trie: Uint8Array, range: KeyRange, from: bigint, to: bigint): Promise<unknown> {
    const params = { ...rangeParams(trie, range), from: Number(from), to: Number(to) };
    return this.calling('NODE.GetRangeHistory', () => this.daemon.call('NODE.GetRangeHistory', params));
  }

  /** Blocks' serialised bytes (NODE.GetBlock by id), in their order: one batch per thousand. */
  async blocks(ids: readonly Uint8Array[]): Promise<Uint8Array[]> {
    const blobs: Uint8Array[] = [];
    for (let i = 0; i < ids.length; i += BATCH_LIMIT) {
      const calls = ids
        .slice(i, i + BATCH_LIMIT)
        .map((id) => ({ method: 'NODE.GetBlock', params: { hash: toHex(id) } }));
      const answers = await this.calling('NODE.GetBlock', () => this.daemon.batch(calls));
      for (const answer of answers) {
        if (answer instanceof DaemonRpcError) throw readFailure(this.url, 'NODE.GetBlock', answer);
        const blob = isRecord(answer) ? answer.blob : undefined;
        if (typeof blob !== 'string' || !isWholeBytesHex(blob))
          throw proofRefused(this.url, `block ${toHex(ids[blobs.length]!)}`, 'its answer holds no hex blob');
        blobs.push(fromHex(blob));
      }
    }
    return blobs;
  }

  /**
   * The serialised transactions `txids` name, in their order, as many as the daemon answered with, each with what a
   * contract transaction's call did as the daemon reports it (its word: the outcome is not in the state).
   */
  async transactions(txids: readonly Uint8Array[]): Promise<ServedTransaction[]> {
    const bodies: ServedTransaction[] = [];
    for (let i = 0; i < txids.length; i += BATCH_LIMIT) {
      const params = { txs_hashes: txids.slice(i, i + BATCH_LIMIT).map(toHex) };
      const answer = await this.calling('NODE.GetTransaction', () => this.daemon.call('NODE.GetTransaction', params));
      const txs = isRecord(answer) ? answer.txs : undefined;
      if (!Array.isArray(txs)) throw proofRefused(this.url, 'transactions', 'its answer holds no transaction list');
      for (const tx of txs) {
        const hex = isRecord(tx) ? tx.as_hex : undefined;
        if (typeof hex !== 'string' || !isWholeBytesHex(hex) || hex === '')
          throw proofRefused(this.url, `transaction ${bodies.length + 1}`, 'its answer holds no transaction hex');
        const outcome =
          isRecord(tx) && isRecord(tx.sc_outcome) ? (tx.sc_outcome as unknown as ContractCallOutcome) : undefined;
        bodies.push({ bytes: fromHex(hex), ...(outcome && { outcome }) });
      }
    }
    return bodies;
  }

  private async calling<T>(method: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw readFailure(this.url, method, error);
    }
  }
}
