/**
 * The miner's side of the getwork protocol (docs/mining.md § The getwork protocol): one WebSocket to the daemon, the
 * latest job it pushed, solutions sent back and their results counted. When the daemon goes away it reconnects with
 * a back-off doubling from 1 s to 30 s; when the daemon refuses the address it stops with the daemon's reason.
 */
import WebSocket from 'ws';
import type { Logger } from '../../host/logger.js';
import { fromHex } from '../../protocol/bytes.js';
import type { MinerJob } from '../../host/mining/cpu-miner.js';
import {
  GETWORK_MAX_MESSAGE_BYTES,
  GetworkClose,
  getworkPath,
  type ServerMessage,
  type SubmitMessage,
} from '../../host/mining/getwork-protocol.js';
import { type MinerCounts, pause, type WorkSource } from './work-source.js';

const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;

export class GetworkClient implements WorkSource {
  readonly counts: MinerCounts = { jobs: 0, accepted: 0, rejected: 0, blocks: 0 };
  private job: MinerJob | undefined;
  private socket: WebSocket | undefined;
  private readonly stopped = new AbortController();

  /** `daemon` is the getwork server's host:port. */
  constructor(
    private readonly daemon: string,
    private readonly address: string,
    private readonly logger: Logger,
  ) {}

  current(): MinerJob | undefined {
    return this.job;
  }

  async run(onJob: () => void): Promise<void> {
    let retryMs = FIRST_RETRY_MS;
    while (!this.stopped.signal.aborted) {
      const { gotJob, refusal } = await this.connectOnce(onJob);
      if (refusal) throw new Error(`the daemon refused this miner: ${refusal}`);
      if (this.stopped.signal.aborted) return;
      if (gotJob) retryMs = FIRST_RETRY_MS;
      this.logger.warn(`getwork connection to ${this.daemon} lost; retrying in ${retryMs / 1000} s`);
      await pause(retryMs, this.stopped.signal);
      retryMs = Math.min(LAST_RETRY_MS, retryMs * 2);
    }
  }

  /** One connection, until it closes: whether it brought a job, and the daemon's reason when it refused the address. */
  private connectOnce(onJob: () => void): Promise<{ gotJob: boolean; refusal?: string }> {
    return new Promise((resolve) => {
      const socket = new WebSocket(`ws://${this.daemon}${getworkPath(this.address)}`, {
        maxPayload: GETWORK_MAX_MESSAGE_BYTES,
      });
      this.socket = socket;
      let gotJob = false;
      let reason = '';
      socket.on('open', () => this.logger.info(`connected to the getwork server at ${this.daemon}`));
      socket.on('message', (data) => {
        let message: ServerMessage;
        try {
          message = JSON.parse(data.toString()) as ServerMessage;
        } catch {
          this.logger.warn('the getwork server sent a message that is not JSON; reconnecting');
          return socket.terminate();
        }
        if (message.type === 'job') {
          gotJob = true;
          this.counts.jobs++;
          this.job = { jobId: message.job_id, blob: fromHex(message.blob, 48), difficulty: BigInt(message.difficulty) };
          onJob();
        } else if (message.type === 'result') {
          if (message.accepted) {
            this.counts.accepted++;
            if (message.block) {
              this.counts.blocks++;
              this.logger.info(`block found: ${message.block_id}`);
            }
          } else {
            this.counts.rejected++;
            this.logger.warn(`solution rejected: ${message.reason}`);
          }
        } else if (message.type === 'error') {
          reason = message.reason;
          this.logger.warn(`the daemon closes the connection: ${message.reason}`);
        }
      });
      socket.on('error', (error) => this.logger.debug(`getwork connection: ${error.message}`));
      socket.on('close', (code) => {
        this.job = undefined;
        this.socket = undefined;
        onJob();
        // A refusal before any job is about this address, and reconnecting will not change it.
        resolve(code === GetworkClose.Refused && !gotJob ? { gotJob, refusal: reason } : { gotJob });
      });
    });
  }

  submit(jobId: string, blob: Uint8Array): void {
    const message: SubmitMessage = { type: 'submit', job_id: jobId, blob: Buffer.from(blob).toString('hex') };
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  stop(): void {
    this.stopped.abort();
    this.socket?.close(1000, 'miner stopping');
  }
}
