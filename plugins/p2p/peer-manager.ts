/**
 * The node's connections: the listening server, dialling (configured peers always, then the peer book until enough
 * outgoing connections are up), the handshake, peer exchange, connection limits and bans. Messages of ready peers
 * that are not about connections go to `onMessage` (the block and transaction relays, sync).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { parseBindAddress } from '../../host/config/schema.js';
import type { Logger } from '../../host/logger.js';
import { equalBytes, toHex } from '../../host/protocol/bytes.js';
import type { ChainService } from '../../host/services/chain.js';
import { PENALTY, type Bans } from './bans.js';
import { localHello, refusalOf, type Hello, type LocalIdentity } from './handshake.js';
import { Peer, type Direction, type PeerTimings } from './peer.js';
import type { PeerBook } from './peer-book.js';
import { PeerBudget } from './peer-budget.js';
import { MAX_PEER_ADDRESSES, type Message } from './wire/messages.js';
import type { PeerCounts } from '../../host/services/p2p.js';

export interface PeerManagerOptions {
  identity: LocalIdentity;
  chain: ChainService;
  book: PeerBook;
  bans: Bans;
  logger: Logger;
  /** `host:port` to listen on, or '' for none. */
  bind: string;
  /** Peers to stay connected to. */
  addPeers: readonly string[];
  maxPeers: number;
  timings: PeerTimings;
  /** How often connections are topped up, ms. */
  maintainMs: number;
  /** How often connected peers are asked for more addresses, ms. */
  exchangeMs: number;
}

/** Outgoing connections the node keeps up from its peer book (configured peers come on top, up to maxPeers). */
const OUTGOING_TARGET = 8;
/** A failed address is not dialled again before this, ms. */
const REDIAL_DELAY_MS = 30_000;

export class PeerManager {
  private readonly peers = new Set<Peer>();
  private readonly dialing = new Set<string>();
  private readonly lastFailure = new Map<string, number>();
  /** Addresses that turned out to be this node: peers keep telling us of them, and they are not dialled again. */
  private readonly ownAddresses = new Set<string>();
  /** Connections refused only because the peer is connected already: not a failure of its address. */
  private readonly duplicates = new WeakSet<Peer>();
  private server: Server | undefined;
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  /** Messages of ready peers that are not about connections. */
  onMessage: (peer: Peer, message: Message) => void = () => {};
  /** A peer completed its handshake. */
  onReady: (peer: Peer) => void = () => {};

  constructor(private readonly options: PeerManagerOptions) {}

  get identity(): LocalIdentity {
    return this.options.identity;
  }

  /** Starts listening (when configured) and dialling. Resolves once the server listens. */
  async start(): Promise<void> {
    const { bind, logger } = this.options;
    if (bind) {
      const { host, port } = parseBindAddress(bind);
      const server = createServer((socket) => this.admit(socket));
      await new Promise<void>((resolve, reject) => {
        server.once('error', (error: NodeJS.ErrnoException) =>
          reject(
            new Error(
              `cannot listen on ${bind} for P2P: ${error.code === 'EADDRINUSE' ? 'address already in use' : error.message}`,
            ),
          ),
        );
        server.listen(port, host, () => resolve());
      });
      // Accept failures (out of file descriptors, say) must not bring the daemon down.
      server.on('error', (error) => logger.warn(`P2P server: ${error.message}`));
      this.server = server;
      this.options.identity.port = (server.address() as { port: number }).port;
      logger.info(
        `P2P listening on ${host.includes(':') ? `[${host}]` : host}:${this.options.identity.port}; node id ${toHex(this.options.identity.nodeId)}`,
      );
    } else {
      logger.info(
        `P2P not listening (no --p2p-bind): outgoing connections only; node id ${toHex(this.options.identity.nodeId)}`,
      );
    }
    for (const address of this.options.addPeers) this.options.book.heardOf(address);
    this.timers.push(setInterval(() => this.maintain(), this.options.maintainMs).unref());
    this.timers.push(setInterval(() => this.exchange(), this.options.exchangeMs).unref());
    this.maintain();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const peer of this.peers) peer.close('the node is shutting down');
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Peers that completed the handshake. */
  ready(): Peer[] {
    return [...this.peers].filter((peer) => peer.hello && !peer.closed);
  }

  counts(): PeerCounts {
    const ready = this.ready();
    return {
      incoming: ready.filter((peer) => peer.direction === 'incoming').length,
      outgoing: ready.filter((peer) => peer.direction === 'outgoing').length,
      white: this.options.book.whiteSize,
      grey: this.options.book.greySize,
    };
  }

  /** Dials `address`; resolves when the TCP connection is up (the handshake follows), rejects when it cannot be made. */
  connect(address: string): Promise<Peer> {
    const { host, port } = parseBindAddress(address);
    this.dialing.add(address);
    return new Promise<Peer>((resolve, reject) => {
      const socket = connect({ host, port });
      socket.setTimeout(this.options.timings.handshakeMs, () => socket.destroy(new Error('connection timed out')));
      const failed = (error: Error): void => {
        this.dialing.delete(address);
        this.dialFailed(address);
        reject(new Error(`cannot connect to ${address}: ${error.message}`));
      };
      socket.once('error', failed);
      socket.once('connect', () => {
        socket.off('error', failed);
        socket.setTimeout(0);
        this.dialing.delete(address);
        const peer = this.open(socket, 'outgoing');
        peer.listenAddress = address;
        resolve(peer);
      });
    });
  }

  /** Adds misbehaviour points to a peer's address; a ban closes every connection from it. */
  penalise(peer: Peer, points: number, reason: string): void {
    const { bans, logger } = this.options;
    if (!bans.penalise(peer.host, points)) {
      logger.debug(`peer ${peer}: ${reason} (+${points} ban score)`);
      return;
    }
    logger.warn(`banned ${peer.host} (peer ${peer}): ${reason}`);
    for (const other of this.peers) if (other.host === peer.host) other.close(`banned: ${reason}`);
  }

  private admit(socket: Socket): void {
    const host = socket.remoteAddress ?? '';
    if (this.stopped || this.options.bans.isBanned(host)) {
      this.options.logger.debug(`refused a connection from banned ${host}`);
      socket.destroy();
      return;
    }
    const peer = this.open(socket, 'incoming');
    if (this.peers.size > this.options.maxPeers) peer.close(`too many peers (at most ${this.options.maxPeers})`);
  }

  private open(socket: Socket, direction: Direction): Peer {
    const peer = new Peer(
      socket,
      direction,
      {
        message: (p, message) => this.receive(p, message),
        violation: (p, reason) => this.penalise(p, PENALTY.malformed, reason),
        closed: (p, reason) => this.closed(p, reason),
      },
      this.options.timings,
    );
    peer.budget = new PeerBudget((reason) => this.penalise(peer, PENALTY.overBudget, reason));
    this.peers.add(peer);
    peer.send('hello', localHello(this.options.identity, this.options.chain));
    return peer;
  }

  private dialFailed(address: string): void {
    this.lastFailure.set(address, Date.now());
    this.options.book.failed(address);
  }

  private closed(peer: Peer, reason: string): void {
    this.peers.delete(peer);
    if (peer.hello) return this.options.logger.info(`disconnected from peer ${peer}: ${reason}`);
    this.options.logger.debug(`connection with ${peer} ended before the handshake: ${reason}`);
    if (peer.direction === 'outgoing' && peer.listenAddress && !this.duplicates.has(peer))
      this.dialFailed(peer.listenAddress);
  }

  private receive(peer: Peer, message: Message): void {
    if (message.type === 'goodbye') {
      this.options.logger.info(`peer ${peer} closed the connection: ${message.body.reason}`);
      return peer.close(`the peer said goodbye: ${message.body.reason}`, false);
    }
    if (message.type === 'hello') return this.handshake(peer, message.body);
    if (!peer.hello) {
      this.penalise(peer, PENALTY.misuse, `sent ${message.type} before the handshake`);
      return peer.close(`${message.type} before the handshake`);
    }
    if (message.type === 'getPeers') return this.sharePeers(peer);
    if (message.type === 'peers') return this.learnPeers(message.body.addresses);
    this.onMessage(peer, message);
  }

  private handshake(peer: Peer, hello: Hello): void {
    const { identity, logger, book } = this.options;
    if (peer.hello) return this.penalise(peer, PENALTY.misuse, 'sent a second hello');
    const mismatch = refusalOf(identity, hello);
    const refusal = mismatch ?? this.duplicateRefusal(peer, hello);
    if (refusal) {
      logger.info(`refused peer ${peer}: ${refusal}`);
      // An address of another chain, or of this very node, is not worth keeping.
      if (mismatch && peer.listenAddress) {
        book.forget(peer.listenAddress);
        if (equalBytes(hello.nodeId, identity.nodeId)) this.ownAddresses.add(peer.listenAddress);
      }
      return peer.close(`refused: ${refusal}`);
    }
    if (peer.direction === 'incoming' && hello.port > 0)
      peer.listenAddress = `${peer.host.includes(':') ? `[${peer.host}]` : peer.host}:${hello.port}`;
    peer.accept(hello);
    if (peer.listenAddress) book.connected(peer.listenAddress);
    logger.info(`connected to peer ${peer} (${peer.direction}), its chain at height ${hello.height}`);
    peer.send('getPeers', {});
    this.onReady(peer);
  }

  /**
   * When two nodes dial each other at once, both connections must not be dropped: both sides keep the connection
   * dialled by the node with the smaller id, and close the other.
   */
  private duplicateRefusal(peer: Peer, hello: Hello): string | undefined {
    const theirs = toHex(hello.nodeId);
    const existing = [...this.peers].find(
      (other) => other !== peer && other.hello && toHex(other.hello.nodeId) === theirs,
    );
    if (!existing) return undefined;
    const ours = toHex(this.options.identity.nodeId);
    const dialler = (p: Peer): string => (p.direction === 'outgoing' ? ours : theirs);
    if (dialler(existing) <= dialler(peer)) {
      this.duplicates.add(peer);
      return 'already connected to this node';
    }
    existing.close('replaced by a connection in the other direction');
    return undefined;
  }

  private sharePeers(peer: Peer): void {
    const addresses = this.options.book
      .share(MAX_PEER_ADDRESSES + 1)
      .filter((address) => address !== peer.listenAddress);
    peer.send('peers', { addresses: addresses.slice(0, MAX_PEER_ADDRESSES) });
  }

  private learnPeers(addresses: string[]): void {
    for (const address of addresses) {
      try {
        parseBindAddress(address);
      } catch {
        continue;
      }
      if (!this.connectedTo(address) && !this.ownAddresses.has(address)) this.options.book.heardOf(address);
    }
    this.maintain();
  }

  private connectedTo(address: string): boolean {
    return this.dialing.has(address) || [...this.peers].some((peer) => peer.listenAddress === address);
  }

  /** Dials configured peers that are not connected, then book addresses until the outgoing target is met. */
  private maintain(): void {
    if (this.stopped) return;
    const { addPeers, book, maxPeers, logger } = this.options;
    const now = Date.now();
    const dialable = (address: string): boolean =>
      !this.connectedTo(address) &&
      now - (this.lastFailure.get(address) ?? 0) >= REDIAL_DELAY_MS &&
      !this.options.bans.isBanned(parseBindAddress(address).host);
    const dial = (address: string): void => {
      this.connect(address).catch((error: Error) => logger.debug(error.message));
    };
    for (const address of addPeers)
      if (this.peers.size + this.dialing.size < maxPeers && dialable(address)) dial(address);
    const outgoing = (): number =>
      [...this.peers].filter((peer) => peer.direction === 'outgoing').length + this.dialing.size;
    for (const address of book.candidates()) {
      if (outgoing() >= Math.min(OUTGOING_TARGET, maxPeers) || this.peers.size + this.dialing.size >= maxPeers) break;
      if (dialable(address)) dial(address);
    }
  }

  private exchange(): void {
    for (const peer of this.ready()) peer.send('getPeers', {});
  }
}
