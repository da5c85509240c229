/**
 * The getwork server (`--getwork-bind HOST:PORT`; docs/mining.md § The getwork protocol): miners connect by WebSocket
 * at /ws/<address>, get a job at once and a new one whenever the chain's top or the miniblock pool changes, and
 * submit solutions, each answered accepted or rejected with the reason. Bounded: at most MAX_MINERS connections,
 * messages of GETWORK_MAX_MESSAGE_BYTES, SUBMIT_BURST submissions then SUBMIT_RATE a second per connection; a
 * connection that breaks a rule is closed with the reason, and no other is disturbed.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { parseBindAddress } from '../../host/config/schema.js';
import { listenOn } from '../../host/listen.js';
import type { Logger } from '../../host/logger.js';
import { TokenBucket } from '../../host/token-bucket.js';
import {
  GETWORK_MAX_MESSAGE_BYTES,
  GetworkClose,
  type JobMessage,
  type ServerMessage,
  type SubmitMessage,
} from '../../host/mining/getwork-protocol.js';
import { fromHex, toHex } from '../../protocol/bytes.js';
import type { ConnectedMiner } from '../../host/services/miners.js';
import type { MiningService } from './mining-service.js';

export const MAX_MINERS = 256;
/** Submissions a connection may make at once, then SUBMIT_RATE a second. */
export const SUBMIT_BURST = 40;
export const SUBMIT_RATE = 20;
/** Largest frame read at all (beyond it the connection is dropped without a reason). */
const FRAME_LIMIT = 64 * 1024;

export interface GetworkServerOptions {
  bind: string;
  service: MiningService;
  /** The 33-byte key of a registered address; throws with the reason otherwise. */
  registeredKeyOf(address: string): Uint8Array;
  logger: Logger;
}

interface Miner {
  socket: WebSocket;
  stats: ConnectedMiner;
  key: Uint8Array;
  lastJobId: string;
  /** Submissions it may still make (refilled at SUBMIT_RATE a second up to SUBMIT_BURST). */
  submissions: TokenBucket;
}

export class GetworkServer {
  private readonly miners = new Set<Miner>();
  private http: Server | undefined;
  private wss: WebSocketServer | undefined;
  private broadcastQueued = false;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly options: GetworkServerOptions) {}

  /** The port it listens on (0 before start). */
  get port(): number {
    return (this.http?.address() as AddressInfo | null)?.port ?? 0;
  }

  connected(): ConnectedMiner[] {
    return [...this.miners].map((miner) => ({ ...miner.stats }));
  }

  async start(): Promise<void> {
    const http = createServer((_req, res) =>
      res.writeHead(426, { 'content-type': 'text/plain' }).end('getwork: connect by WebSocket to /ws/<address>\n'),
    );
    // Listening first: a WebSocket server attached before would re-emit a failure to listen as an unhandled error.
    await listenOn(http, this.options.bind, 'the getwork server');
    // Frames up to FRAME_LIMIT are read, so that a message over the protocol's limit is answered with the reason.
    const wss = new WebSocketServer({ server: http, maxPayload: FRAME_LIMIT });
    wss.on('connection', (socket, request) => this.onConnection(socket, request));
    this.http = http;
    this.wss = wss;
    // Coalesced: one new job per miner for however many changes one turn of the event loop brings.
    this.unsubscribe = this.options.service.onChange(() => {
      if (this.broadcastQueued) return;
      this.broadcastQueued = true;
      setImmediate(() => {
        this.broadcastQueued = false;
        for (const miner of this.miners) this.sendJob(miner);
      });
    });
    const { host } = parseBindAddress(this.options.bind);
    this.options.logger.info(`getwork server listening on ws://${host}:${this.port}/ws/<address>`);
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    for (const miner of this.miners) miner.socket.terminate();
    this.miners.clear();
    this.wss?.close();
    await new Promise<void>((resolve) => (this.http ? this.http.close(() => resolve()) : resolve()));
  }

  private onConnection(socket: WebSocket, request: IncomingMessage): void {
    socket.on('error', () => socket.terminate());
    if (this.miners.size >= MAX_MINERS)
      return close(socket, GetworkClose.TooMany, `the server holds its most miners (${MAX_MINERS}); try again later`);
    const path = new URL(request.url ?? '/', 'http://getwork').pathname;
    const match = /^\/ws\/([^/]+)$/.exec(path);
    if (!match) return close(socket, GetworkClose.Refused, 'connect to /ws/<your registered wallet address>');
    const address = decodeURIComponent(match[1]!);
    let key: Uint8Array;
    try {
      key = this.options.registeredKeyOf(address);
    } catch (error) {
      return close(socket, GetworkClose.Refused, `address refused: ${(error as Error).message}`);
    }
    const miner: Miner = {
      socket,
      key,
      lastJobId: '',
      submissions: new TokenBucket({ perSecond: SUBMIT_RATE, burst: SUBMIT_BURST }, Date.now()),
      stats: { address, since: Date.now(), jobs: 0, accepted: 0, rejected: 0, blocks: 0, share: 0 },
    };
    this.miners.add(miner);
    socket.on('close', () => this.miners.delete(miner));
    socket.on('message', (data: Buffer, isBinary) => {
      if (data.length > GETWORK_MAX_MESSAGE_BYTES)
        return close(
          socket,
          GetworkClose.TooBig,
          `message of ${data.length} bytes: at most ${GETWORK_MAX_MESSAGE_BYTES}`,
        );
      void this.onMessage(miner, isBinary ? undefined : data.toString());
    });
    this.sendJob(miner);
  }

  private sendJob(miner: Miner): void {
    let job: JobMessage;
    try {
      const template = this.options.service.template(miner.key);
      job = {
        type: 'job',
        job_id: template.id,
        blob: toHex(template.blob),
        difficulty: template.difficulty.toString(),
        height: Number(template.height),
        final: template.final,
      };
    } catch (error) {
      return close(miner.socket, GetworkClose.Refused, `no work for this address: ${(error as Error).message}`);
    }
    miner.lastJobId = job.job_id;
    miner.stats.jobs++;
    send(miner.socket, job);
  }

  private async onMessage(miner: Miner, text: string | undefined): Promise<void> {
    const submit = text === undefined ? undefined : parseSubmit(text);
    if (!submit)
      return close(
        miner.socket,
        GetworkClose.BadMessage,
        'bad message: expected JSON text {"type":"submit","job_id":…,"blob":<96 hex>}',
      );
    if (!miner.submissions.take(1, Date.now()))
      return close(miner.socket, GetworkClose.Refused, `too many submissions: at most ${SUBMIT_RATE} a second`);
    try {
      const result = await this.options.service.submit(submit.job_id, fromHex(submit.blob));
      miner.stats.accepted++;
      if (result.block_found) miner.stats.blocks++;
      send(miner.socket, {
        type: 'result',
        job_id: submit.job_id,
        accepted: true,
        block: result.block_found,
        ...(result.blid ? { block_id: result.blid } : {}),
      });
    } catch (error) {
      miner.stats.rejected++;
      send(miner.socket, { type: 'result', job_id: submit.job_id, accepted: false, reason: (error as Error).message });
    }
  }
}

/** A submission, or undefined when `text` is not one (not JSON, another shape, a blob that is not 48 bytes of hex). */
function parseSubmit(text: string): SubmitMessage | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { type, job_id, blob } = (message ?? {}) as Partial<SubmitMessage>;
  if (type !== 'submit' || typeof job_id !== 'string' || job_id.length > 64) return undefined;
  if (typeof blob !== 'string' || !/^[0-9a-fA-F]{96}$/.test(blob)) return undefined;
  return { type, job_id, blob };
}

function send(socket: WebSocket, message: ServerMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

/** Tells the miner why, then closes (a close frame's reason is at most 123 bytes). */
function close(socket: WebSocket, code: number, reason: string): void {
  send(socket, { type: 'error', reason });
  socket.close(code, Buffer.from(reason).subarray(0, 123).toString());
}
