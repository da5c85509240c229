/** Where `umbra miner` gets its jobs and sends its solutions: the getwork server, or the JSON-RPC templates (`--rpc`). */
import type { MinerJob } from '../../host/mining/cpu-miner.js';

/** What the miner has done, as it prints it. */
export interface MinerCounts {
  jobs: number;
  accepted: number;
  rejected: number;
  blocks: number;
}

export interface WorkSource {
  readonly counts: MinerCounts;
  /** The job to work on now, if any. */
  current(): MinerJob | undefined;
  /** Runs until `stop`, calling `onJob` whenever `current` changes; rejects only when mining cannot go on. */
  run(onJob: () => void): Promise<void>;
  submit(jobId: string, blob: Uint8Array): void;
  stop(): void;
}

/** Waits `ms`, or less when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
