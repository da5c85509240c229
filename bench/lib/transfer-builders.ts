/** Builds many transfers ahead of a load run on worker threads (bench/lib/transfer-build-worker.ts), one per core. */
import type { RpcArgument } from '../../protocol/rpc-arguments.js';
import { inWorkers } from './worker-batches.js';

export interface BuildJob {
  /** Hex of the sender's secret key. */
  secretKey: string;
  /** Hex of the compressed ring keys, in order. */
  ring: string[];
  senderIndex: number;
  receiverIndex: number;
  /** A contract transaction's arguments (an install or a call); a plain transfer without. */
  scArgs?: RpcArgument[];
}

/** What a worker gets: the reference block (height as a decimal string, ids in hex) and the jobs. */
export interface BuildBatch {
  domain: string;
  reference: { height: string; blid: string; roothash: string };
  jobs: BuildJob[];
}

const CHUNK = 32;

/** The transactions of `jobs`, in hex and in order. */
export function buildTransfers(
  domain: string,
  reference: BuildBatch['reference'],
  jobs: readonly BuildJob[],
): Promise<string[]> {
  return inWorkers<BuildJob, string>(
    new URL('./transfer-build-worker.js', import.meta.url),
    jobs,
    (chunk) => ({ domain, reference, jobs: chunk }) satisfies BuildBatch,
    CHUNK,
  );
}
