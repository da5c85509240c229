/**
 * `umbra miner --rpc`: work from a daemon without getwork, through NODE.GetBlockTemplate (polled) and NODE.SubmitBlock.
 * The job changes when the template's tip or pooled miniblock count does; a daemon that cannot be reached is asked
 * again with a back-off doubling from 1 s to 30 s.
 */
import { DaemonClient, DaemonUnavailableError } from '../../wallet/daemon-client.js';
import type { Logger } from '../../host/logger.js';
import { fromHex } from '../../protocol/bytes.js';
import type { MinerJob } from '../../host/mining/cpu-miner.js';
import { type MinerCounts, pause, type WorkSource } from './work-source.js';

const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;

interface Template {
  jobid: string;
  blockhashing_blob: string;
  difficulty: string;
  height: number;
  prev_hash: string;
  miniblocks: number;
}

export class RpcWork implements WorkSource {
  readonly counts: MinerCounts = { jobs: 0, accepted: 0, rejected: 0, blocks: 0 };
  private job: MinerJob | undefined;
  /** Tip and pooled count of the current job: a template that differs only in its nonce is the same work. */
  private workOf = '';
  private readonly client: DaemonClient;
  private readonly stopped = new AbortController();
  private wake: () => void = () => {};

  constructor(
    daemon: string,
    private readonly address: string,
    private readonly logger: Logger,
    private readonly pollMs = 500,
  ) {
    this.client = new DaemonClient(daemon);
  }

  current(): MinerJob | undefined {
    return this.job;
  }

  async run(onJob: () => void): Promise<void> {
    let retryMs = FIRST_RETRY_MS;
    while (!this.stopped.signal.aborted) {
      try {
        const template = await this.client.call<Template>('NODE.GetBlockTemplate', { wallet_address: this.address });
        retryMs = FIRST_RETRY_MS;
        const work = `${template.prev_hash}.${template.miniblocks}`;
        if (work !== this.workOf || !this.job) {
          this.workOf = work;
          this.counts.jobs++;
          this.job = {
            jobId: template.jobid,
            blob: fromHex(template.blockhashing_blob, 48),
            difficulty: BigInt(template.difficulty),
          };
          onJob();
        }
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          void pause(this.pollMs, this.stopped.signal).then(resolve);
        });
      } catch (error) {
        if (!(error instanceof DaemonUnavailableError))
          throw new Error(`the daemon refused this miner: ${(error as Error).message}`);
        this.job = undefined;
        this.logger.warn(`${error.message}; retrying in ${retryMs / 1000} s`);
        await pause(retryMs, this.stopped.signal);
        retryMs = Math.min(LAST_RETRY_MS, retryMs * 2);
      }
    }
  }

  submit(jobId: string, blob: Uint8Array): void {
    this.client
      .call<{ block_found: boolean; blid?: string }>('NODE.SubmitBlock', {
        jobid: jobId,
        mbl_blob: Buffer.from(blob).toString('hex'),
      })
      .then((result) => {
        this.counts.accepted++;
        if (result.block_found) {
          this.counts.blocks++;
          this.logger.info(`block found: ${result.blid}`);
        }
      })
      .catch((error: Error) => {
        this.counts.rejected++;
        this.logger.warn(`solution rejected: ${error.message}`);
      })
      // The pool or the tip has changed: ask for the next template now.
      .finally(() => this.wake());
  }

  stop(): void {
    this.stopped.abort();
  }
}
