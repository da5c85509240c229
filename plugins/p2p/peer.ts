/**
 * One P2P connection: frames in and out of its link, requests matched to their responses, keep-alive pings (which
 * also measure the round trip) and the idle timeout, and an orderly close (a `goodbye` with the reason first). What
 * the messages mean is for the peer manager and the relays; a stream that breaks the wire format is reported as a
 * violation and closed.
 */
import { decodeMessage, encodeMessage } from './wire/codec.js';
import { FrameDecoder, FrameError } from './wire/frame.js';
import {
  frameLimitOf,
  RESPONSES,
  type Body,
  type Message,
  type MessageName,
  type RequestName,
} from './wire/messages.js';
import { ProtocolError } from './wire/shape.js';
import { KnownSet } from './known-set.js';
import type { PeerBudget } from './peer-budget.js';
import type { Link } from './link.js';

export interface PeerTimings {
  /** Time a new connection has to complete the handshake. */
  handshakeMs: number;
  /** A ping goes out this often: it keeps the connection alive and measures the round trip. */
  pingIntervalMs: number;
  /** A peer that sends nothing (not even a pong) for this long is dropped. */
  idleTimeoutMs: number;
  /** Time a request has for its response. */
  requestTimeoutMs: number;
}

export const DEFAULT_TIMINGS: PeerTimings = {
  handshakeMs: 10_000,
  pingIntervalMs: 15_000,
  idleTimeoutMs: 60_000,
  requestTimeoutMs: 30_000,
};

/** A peer that lets this much outgoing data pile up is not reading: it is dropped rather than buffered for. */
const MAX_WRITE_BACKLOG = 64 * 1024 * 1024;

export interface PeerHandlers {
  /** Every message that is not a response to one of our requests, nor a ping/pong. */
  message(peer: Peer, message: Message): void;
  /** The peer broke the protocol; the connection is already closing. */
  violation(peer: Peer, reason: string): void;
  closed(peer: Peer, reason: string): void;
}

type ResponseBody<R extends RequestName> = Body<(typeof RESPONSES)[R]>;
type RequestBody<R extends RequestName> = Omit<Body<R>, 'request'>;

interface PendingRequest {
  expects: MessageName;
  resolve(body: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export type Direction = 'incoming' | 'outgoing';

export class Peer {
  /** The peer's handshake, once accepted. */
  hello: Body<'hello'> | undefined;
  /** Where the peer accepts connections (`host:port`), when known. */
  listenAddress: string | undefined;
  /** The peer's chain as last announced, or as the blocks and miniblocks it relays show it to be. */
  height = 0;
  work = 0n;
  /** When the connection was opened (ms since the epoch). */
  readonly connectedAt = Date.now();
  /** The round trip of the last answered ping, ms; undefined until one is answered. */
  latencyMs: number | undefined;
  readonly knownBlocks = new KnownSet();
  readonly knownTxs = new KnownSet();
  /** What the peer may send; a frame over it is dropped undecoded. */
  budget: PeerBudget | undefined;
  private readonly decoder = new FrameDecoder(frameLimitOf);
  private readonly pending = new Map<number, PendingRequest>();
  private nextRequest = 1;
  private lastReceived = Date.now();
  /** The ping awaiting its pong; a newer ping replaces it. */
  private pingSent: { nonce: number; at: number } | undefined;
  private readonly keepAlive: NodeJS.Timeout;
  private handshakeTimer: NodeJS.Timeout | undefined;
  private closedReason: string | undefined;

  constructor(
    private readonly link: Link,
    readonly direction: Direction,
    private readonly handlers: PeerHandlers,
    private readonly timings: PeerTimings,
  ) {
    link.listen({
      data: (chunk) => this.receive(chunk),
      error: (error) => this.close(`connection error: ${error.message}`, false),
      close: () => this.close('connection closed by the peer', false),
    });
    this.keepAlive = setInterval(
      () => this.tick(),
      Math.min(timings.pingIntervalMs, timings.idleTimeoutMs) / 2,
    ).unref();
    this.handshakeTimer = setTimeout(
      () => this.close(`no handshake within ${timings.handshakeMs} ms`),
      timings.handshakeMs,
    ).unref();
  }

  /** The remote IP address (what bans apply to). */
  get host(): string {
    return this.link.host;
  }

  /** The libp2p peer id the remote proved. */
  get peerId(): string {
    return this.link.peerId;
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** `host:port` of the peer for logs: its listening address when known, else the connection's remote end. */
  toString(): string {
    return this.listenAddress ?? `${this.host}:${this.link.port}`;
  }

  /** Marks the handshake complete. */
  accept(hello: Body<'hello'>): void {
    clearTimeout(this.handshakeTimer);
    this.handshakeTimer = undefined;
    this.hello = hello;
    this.height = hello.height;
    this.work = hello.work;
    this.knownBlocks.add(hello.top);
    this.ping();
  }

  /** The peer has a chain of `work` up to `height` (it relayed a block there): raises what is known of its chain. */
  reached(height: number, work = 0n): void {
    this.height = Math.max(this.height, height);
    if (work > this.work) this.work = work;
  }

  send<N extends MessageName>(type: N, body: Body<N>): void {
    if (this.closed) return;
    this.link.write(encodeMessage(type, body));
    if (this.link.backlog > MAX_WRITE_BACKLOG) this.close('too slow: it does not read what is sent to it');
  }

  /** Sends a request and resolves with its response; rejects when the peer does not answer in time or goes away. */
  request<R extends RequestName>(type: R, body: RequestBody<R>): Promise<ResponseBody<R>> {
    const request = this.nextRequest++;
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error(`peer ${this} is gone: ${this.closedReason}`));
      const timer = setTimeout(() => {
        this.pending.delete(request);
        reject(new Error(`${this} did not answer ${type} within ${this.timings.requestTimeoutMs} ms`));
      }, this.timings.requestTimeoutMs);
      this.pending.set(request, {
        expects: RESPONSES[type],
        resolve: resolve as (body: unknown) => void,
        reject,
        timer,
      });
      this.send(type, { ...body, request } as Body<R>);
    });
  }

  /** Closes the connection; `tell` sends the reason to the peer first. Idempotent. */
  close(reason: string, tell = true): void {
    if (this.closed) return;
    this.closedReason = reason;
    if (tell && !this.link.ended) this.link.write(encodeMessage('goodbye', { reason }));
    this.link.end();
    clearInterval(this.keepAlive);
    clearTimeout(this.handshakeTimer);
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new Error(`peer ${this} is gone: ${reason}`));
    }
    this.pending.clear();
    this.handlers.closed(this, reason);
  }

  private receive(chunk: Uint8Array): void {
    if (this.closed) return;
    this.lastReceived = Date.now();
    try {
      for (const frame of this.decoder.push(chunk)) {
        if (this.budget?.admit(frame.kind, frame.body.length) === false) {
          if (this.closed) return;
          continue;
        }
        this.dispatch(decodeMessage(frame));
        if (this.closed) return;
      }
    } catch (error) {
      if (error instanceof FrameError || error instanceof ProtocolError) return this.violate(error.message);
      // A fault of this node while handling the message: drop the connection, not the daemon.
      this.close(`internal error: ${(error as Error).message}`);
    }
  }

  /** Reports a protocol violation and drops the connection. */
  violate(reason: string): void {
    if (this.closed) return;
    this.handlers.violation(this, reason);
    this.close(`protocol violation: ${reason}`);
  }

  private dispatch(message: Message): void {
    if (message.type === 'ping') return this.send('pong', { nonce: message.body.nonce });
    if (message.type === 'pong') {
      if (message.body.nonce === this.pingSent?.nonce) this.latencyMs = Date.now() - this.pingSent.at;
      return;
    }
    if ('request' in message.body && (Object.values(RESPONSES) as string[]).includes(message.type)) {
      const pending = this.pending.get(message.body.request);
      // A response that arrives after its request timed out is dropped: slow is not malicious.
      if (!pending) return;
      if (pending.expects !== message.type)
        return this.violate(`answered a request with ${message.type} instead of ${pending.expects}`);
      this.pending.delete(message.body.request);
      clearTimeout(pending.timer);
      return pending.resolve(message.body);
    }
    this.handlers.message(this, message);
  }

  private tick(): void {
    const now = Date.now();
    if (now - this.lastReceived > this.timings.idleTimeoutMs)
      return this.close(`silent for ${this.timings.idleTimeoutMs} ms`);
    if (now - (this.pingSent?.at ?? 0) >= this.timings.pingIntervalMs) this.ping();
  }

  private ping(): void {
    this.pingSent = { nonce: Math.floor(Math.random() * 2 ** 32), at: Date.now() };
    this.send('ping', { nonce: this.pingSent.nonce });
  }
}
