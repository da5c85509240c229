/**
 * A pool of worker threads that verify transfer proofs, so that validating a block's transactions uses every core
 * while the main thread stays free. `verify(domain, items)` shares the items out over the workers — largest rings
 * first, each to the worker with the least work queued (counting jobs of other callers still running) — and each
 * worker batch-verifies its share (batch-verifier.ts) with its own Core of the pool's implementation: the native
 * addon loads in worker threads; with 'auto' a worker falls back to the TypeScript core when it does not.
 *
 * Workers start on first use and are unreferenced while idle, so an idle pool never keeps the process alive;
 * `close()` stops them. A worker that dies fails its pending jobs with the reason and is replaced on the next call.
 */
import { CoreWorkers, type CoreWorkersOptions } from '../core-workers.js';
import type { ProofItem } from './batch-verifier.js';
import {
  packItem,
  type CompressedProofItem,
  type CompressedVerification,
  type PackedProofItem,
} from './compressed-statement.js';
import type { TransferVerification } from './verifier.js';

export type VerifyPoolOptions = CoreWorkersOptions;

/** Messages to a worker: items ready to verify, or compressed ones (packed) it expands first. */
export type VerifyJob = { id: number; domain: string } & ({ items: ProofItem[] } | { compressed: PackedProofItem[] });

/**
 * The relative cost of verifying one proof: a fixed part (decoding, transcript, the proof's own points) worth about
 * 64 ring members, plus the ring (measured natively: ring 16 ≈ 4 ms, ring 128 ≈ 10 ms).
 */
const cost = (item: ProofItem | PackedProofItem): number =>
  ('statement' in item ? item.statement.ring.length : item.ring) + 64;

export class VerifyPool {
  private readonly workers: CoreWorkers<VerifyJob, CompressedVerification[]>;

  constructor(options: VerifyPoolOptions = {}) {
    this.workers = new CoreWorkers(new URL('./verify-worker.js', import.meta.url), 'proof verification', options);
  }

  get size(): number {
    return this.workers.size;
  }

  /** Verifies every item (proofs for the generator domain `domain`); one result per item, in order. */
  verify(domain: string, items: readonly ProofItem[]): Promise<TransferVerification[]> {
    return this.shareOut(items, (share) => ({ id: this.workers.jobId(), domain, items: share }));
  }

  /**
   * Verifies compressed items, each worker expanding its share first (compressed-statement.ts); an item with a point
   * that is not on the curve is invalid with the reason.
   */
  verifyCompressed(domain: string, items: readonly CompressedProofItem[]): Promise<CompressedVerification[]> {
    return this.shareOut(items.map(packItem), (share) => ({ id: this.workers.jobId(), domain, compressed: share }));
  }

  private async shareOut<T extends ProofItem | PackedProofItem>(
    items: readonly T[],
    job: (share: T[]) => VerifyJob,
  ): Promise<CompressedVerification[]> {
    this.workers.checkOpen('proof verification pool');
    if (items.length === 0) return [];
    const load = this.workers.loads();
    const shares: number[][] = load.map(() => []);
    const order = items.map((_, i) => i).sort((a, b) => cost(items[b]!) - cost(items[a]!));
    for (const i of order) {
      const lightest = load.indexOf(Math.min(...load));
      shares[lightest]!.push(i);
      load[lightest]! += cost(items[i]!);
    }
    const results = new Array<CompressedVerification>(items.length);
    await Promise.all(
      shares.map(async (share, w) => {
        if (share.length === 0) return;
        const mine = share.map((i) => items[i]!);
        const answers = await this.workers.run(
          w,
          job(mine),
          mine.reduce((sum, item) => sum + cost(item), 0),
        );
        share.forEach((i, j) => (results[i] = answers[j]!));
      }),
    );
    return results;
  }

  /** Stops the workers; verifications still running fail. */
  close(): Promise<void> {
    return this.workers.close();
  }
}
