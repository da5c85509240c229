/**
 * The node's connections: the libp2p node (listening, dialling, limits), one stream of our protocol per connection,
 * dialling (configured peers always, then the peer book until enough outgoing connections are up; a failed address
 * is retried on redial-schedule.ts's backoff), the handshake, peer exchange, connection limits and bans. Messages of
 * ready peers that are not about connections go to `onMessage` (the block and transaction relays, sync).
 */
import type { Connection, PrivateKey, Stream } from '@libp2p/interface';
import { parseBindAddress } from '../../host/config/schema.js';
import { listenFailureReason } from '../../host/listen.js';
import type { Logger } from '../../host/logger.js';
import { equalBytes, toHex } from '../../protocol/bytes.js';
import type { ChainService } from '../../host/services/chain.js';
import { PENALTY, type Bans } from './bans.js';
import { localHello, nodeIdOf, protocolOf, refusalOf, type Hello, type LocalIdentity } from './handshake.js';
import type { Link } from './link.js';
import { Peer, type Direction, type PeerTimings } from './peer.js';
import { joinHostPort, multiaddrOf, parsePeerAddress } from './peer-address.js';
import { StreamLink } from './stream-link.js';
import { createTransport, type Transport } from './transport.js';
import { RefusalLog } from './refusal-log.js';
import type { Gossip } from './gossip.js';
import type { PeerBook } from './peer-book.js';
import { PeerBudget } from './peer-budget.js';
import { DEFAULT_REDIAL, RedialSchedule } from './redial-schedule.js';
import { KnownGoodPeers } from './known-good.js';
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
  /** Peers to stay connected to: `host:port`, or `host:port/p2p/<peer id>` to pin the key. */
  addPeers: readonly string[];
  maxPeers: number;
  /** Most connections from one remote IP. */
  maxPerIp: number;
  /** Unencrypted connections (the bench's baseline only). */
  plaintext?: boolean;
  timings: PeerTimings;
  /** How often connections are topped up, ms. */
  maintainMs: number;
  /** How often connected peers are asked for more addresses, ms. */
  exchangeMs: number;
  /** The gossip topics, attached to the libp2p node once it exists. */
  gossip: Gossip;
}

/** Outgoing connections the node keeps up from its peer book (configured peers come on top, up to maxPeers). */
const OUTGOING_TARGET = 8;

export class PeerManager {
  private readonly peers = new Set<Peer>();
  private readonly dialing = new Set<string>();
  private readonly redials = new RedialSchedule();
  private readonly knownGood = new KnownGoodPeers();
  /** Addresses that turned out to be this node: peers keep telling us of them, and they are not dialled again. */
  private readonly ownAddresses = new Set<string>();
  /** Connections refused only because the peer is connected already: not a failure of its address. */
  private readonly duplicates = new WeakSet<Peer>();
  /** Connections that carry a peer already: each carries one stream of our protocol. */
  private readonly carrying = new Set<string>();
  private transport: Transport | undefined;
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  /** Messages of ready peers that are not about connections. */
  onMessage: (peer: Peer, message: Message) => void = () => {};
  /** A peer completed its handshake. */
  onReady: (peer: Peer) => void = () => {};

  constructor(private readonly options: PeerManagerOptions) {}

  /** The node's libp2p peer id (what `host:port/p2p/<peer id>` pins); empty before start. */
  get peerId(): string {
    return this.transport?.peerId.toString() ?? '';
  }

  get identity(): LocalIdentity {
    return this.options.identity;
  }

  /** Starts the libp2p node with the node key, listening (when configured), and dialling. */
  async start(privateKey: PrivateKey): Promise<void> {
    const { bind, logger, identity, bans, timings } = this.options;
    const listen = bind ? parseBindAddress(bind) : undefined;
    let transport: Transport;
    const refusals = new RefusalLog((line) => logger.debug(line));
    try {
      transport = await createTransport({
        privateKey,
        listen,
        maxPeers: this.options.maxPeers,
        maxPerIp: this.options.maxPerIp,
        isBanned: (host) => bans.isBanned(host),
        dialTimeoutMs: timings.handshakeMs,
        onRefused: (host, reason) => refusals.note(host, reason),
        plaintext: this.options.plaintext,
      });
    } catch (error) {
      throw new Error(`cannot listen on ${bind} for P2P: ${listenFailureReason(error)}`);
    }
    this.transport = transport;
    this.options.gossip.attach(transport.services.pubsub);
    // A connection that does not open our stream in time is only holding a slot.
    transport.addEventListener('connection:open', ({ detail: connection }) => {
      setTimeout(() => {
        if (!this.carrying.has(connection.id) && connection.status === 'open') void connection.close();
      }, timings.handshakeMs).unref();
    });
    identity.nodeId = nodeIdOf(transport.peerId);
    await transport.handle(protocolOf(identity.network), (stream, connection) => this.admit(stream, connection), {
      maxInboundStreams: 1,
      maxOutboundStreams: 1,
    });
    if (listen) {
      const port = transport
        .getMultiaddrs()[0]
        ?.getComponents()
        .find((c) => c.name === 'tcp')?.value;
      identity.port = Number(port ?? listen.port);
      logger.info(`P2P listening on ${joinHostPort(listen.host, identity.port)}; peer id ${transport.peerId}`);
    } else {
      logger.info(`P2P not listening (no --p2p-bind): outgoing connections only; peer id ${transport.peerId}`);
    }
    for (const address of this.options.addPeers) this.options.book.heardOf(parsePeerAddress(address).address);
    this.timers.push(setInterval(() => this.maintain(), this.options.maintainMs).unref());
    this.timers.push(setInterval(() => this.exchange(), this.options.exchangeMs).unref());
    this.maintain();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const peer of this.peers) peer.close('the node is shutting down');
    await this.transport?.stop();
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

  /**
   * Dials `address` (`host:port`, or `host:port/p2p/<peer id>` to require that key); resolves once the encrypted
   * connection and our stream are up (the handshake follows), rejects when they cannot be made.
   */
  async connect(address: string): Promise<Peer> {
    const target = parsePeerAddress(address);
    const transport = this.transport;
    if (!transport) throw new Error(`cannot connect to ${address}: P2P is not started`);
    this.dialing.add(target.address);
    try {
      const connection = await transport.dial(multiaddrOf(target), {
        signal: AbortSignal.timeout(this.options.timings.handshakeMs),
      });
      if (this.carrying.has(connection.id)) throw new Error('already connected to this node');
      const stream = await connection.newStream(protocolOf(this.options.identity.network)).catch((error: Error) => {
        void connection.close();
        throw new Error(`it does not speak ${protocolOf(this.options.identity.network)}: ${error.message}`);
      });
      const peer = this.open(new StreamLink(stream, connection), connection.id, 'outgoing');
      peer.listenAddress = target.address;
      return peer;
    } catch (error) {
      const reason = (error as Error).message;
      // libp2p refuses a connection whose far end proves our own key: the address is this node.
      if (/dial self/i.test(reason)) {
        this.options.logger.info(`refused peer ${target.address}: connected to itself`);
        this.ownAddresses.add(target.address);
        this.options.book.forget(target.address);
      } else this.dialFailed(target.address);
      throw new Error(`cannot connect to ${address}: ${reason}`);
    } finally {
      this.dialing.delete(target.address);
    }
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

  private admit(stream: Stream, connection: Connection): void {
    const link = new StreamLink(stream, connection);
    if (this.stopped || this.options.bans.isBanned(link.host) || this.carrying.has(connection.id)) {
      this.options.logger.debug(`refused a stream from ${link.host}`);
      link.end();
      return;
    }
    const peer = this.open(link, connection.id, 'incoming');
    if (this.peers.size > this.options.maxPeers) peer.close(`too many peers (at most ${this.options.maxPeers})`);
  }

  private open(link: Link, connectionId: string, direction: Direction): Peer {
    const peer = new Peer(
      link,
      direction,
      {
        message: (p, message) => this.receive(p, message),
        violation: (p, reason) => this.penalise(p, PENALTY.malformed, reason),
        closed: (p, reason) => {
          this.carrying.delete(connectionId);
          this.closed(p, reason);
        },
      },
      this.options.timings,
    );
    peer.budget = new PeerBudget((reason) => this.penalise(peer, PENALTY.overBudget, reason));
    this.carrying.add(connectionId);
    this.peers.add(peer);
    peer.send('hello', localHello(this.options.identity, this.options.chain));
    return peer;
  }

  /**
   * Schedules the retry of a failed address. While the node has no peer at all the failure may well be its own (its
   * link is down): the address keeps its place in the peer book, so that the node goes on trying what it knows.
   */
  private dialFailed(address: string): void {
    const { book, addPeers } = this.options;
    const known =
      this.knownGood.has(address) ||
      book.isWhite(address) ||
      addPeers.some((spec) => parsePeerAddress(spec).address === address);
    const delay = this.redials.failed(address, known, Date.now());
    this.redialTimer(delay);
    if (this.ready().length > 0) book.failed(address);
  }

  /** Runs the dialling again after `delayMs`, when a retry is due, rather than at the next periodic round. */
  private redialTimer(delayMs: number): void {
    setTimeout(() => this.maintain(), delayMs).unref();
  }

  private closed(peer: Peer, reason: string): void {
    this.peers.delete(peer);
    if (peer.hello) {
      if (peer.listenAddress) this.knownGood.seen(peer.listenAddress, Date.now());
      this.options.logger.info(`disconnected from peer ${peer}: ${reason}`);
      // Whoever left, a connection is to be made again (to it, or to another) before the next periodic round.
      return this.redialTimer(DEFAULT_REDIAL.firstMs * (0.5 + Math.random()));
    }
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
    if (peer.direction === 'incoming' && hello.port > 0) peer.listenAddress = joinHostPort(peer.host, hello.port);
    peer.accept(hello);
    if (peer.listenAddress) {
      book.connected(peer.listenAddress);
      this.knownGood.seen(peer.listenAddress, Date.now());
      this.redials.succeeded(peer.listenAddress);
    }
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

  /**
   * Dials configured peers that are not connected, then peers it was connected to and the peer book's addresses
   * until the outgoing target is met.
   */
  private maintain(): void {
    if (this.stopped) return;
    const { addPeers, book, maxPeers, logger } = this.options;
    const now = Date.now();
    const dialable = (spec: string): boolean => {
      const { address, host } = parsePeerAddress(spec);
      return !this.connectedTo(address) && this.redials.due(address, now) && !this.options.bans.isBanned(host);
    };
    const dial = (address: string): void => {
      this.connect(address).catch((error: Error) => logger.debug(error.message));
    };
    for (const address of addPeers)
      if (this.peers.size + this.dialing.size < maxPeers && dialable(address)) dial(address);
    const outgoing = (): number =>
      [...this.peers].filter((peer) => peer.direction === 'outgoing').length + this.dialing.size;
    const candidates = new Set([...this.knownGood.current(now), ...book.candidates()]);
    for (const address of candidates) {
      if (outgoing() >= Math.min(OUTGOING_TARGET, maxPeers) || this.peers.size + this.dialing.size >= maxPeers) break;
      if (dialable(address)) dial(address);
    }
  }

  private exchange(): void {
    for (const peer of this.ready()) peer.send('getPeers', {});
  }
}
