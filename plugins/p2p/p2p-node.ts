/**
 * A node's P2P side, assembled: the peer manager (connections, handshake, peer exchange, bans), chain sync, block
 * and transaction relay, and the routing of messages between them. Registered as the `p2p` service.
 */
import type { Core } from '../../core-native/ts/core.js';
import type { Logger } from '../../host/logger.js';
import type { KeyValueStore } from '../../host/storage/kv-store.js';
import { Bans } from './bans.js';
import { BlockGossip } from './block-gossip.js';
import { BlockIntake } from './block-intake.js';
import { BlockRelay } from './block-relay.js';
import { BlockTransactions } from './block-transactions.js';
import { ChainSync } from './chain-sync.js';
import { FastSync, type FastSyncStatus } from './fast-sync.js';
import { SnapshotServer } from './snapshot-server.js';
import type { SnapshotService } from '../../host/services/snapshots.js';
import { SyncProgress, type SyncSnapshot } from './sync-progress.js';
import { DEFAULT_TIMINGS, type Peer, type PeerTimings } from './peer.js';
import { PeerBook } from './peer-book.js';
import { PeerManager } from './peer-manager.js';
import type { ChainService } from '../../host/services/chain.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';
import { TxRelay } from './tx-relay.js';
import { DEFAULT_DANDELION, type DandelionSettings } from './dandelion.js';
import { MiniblockRelay } from './miniblock-relay.js';
import { NoPeerWarning } from './no-peer-warning.js';
import { Gossip } from './gossip.js';
import type { MiniblockPoolService } from '../../host/services/miniblocks.js';
import type { Message } from './wire/messages.js';
import type { PeerCounts } from '../../host/services/p2p.js';

export interface P2pSettings {
  /** `host:port` to listen on, or '' for none. */
  bind: string;
  addPeers: readonly string[];
  /** Well-known peers, put in the peer book when it is empty. */
  seedPeers: readonly string[];
  maxPeers: number;
  maxPerIp: number;
  /** Unencrypted connections: the bench's baseline for what encryption costs, never for a real node. */
  plaintext?: boolean;
  /** The log warns after this long without a peer, ms. */
  noPeerWarningMs: number;
  timings: PeerTimings;
  banMs: number;
  maintainMs: number;
  exchangeMs: number;
  /** How often stem embargoes and stems whose successor left are looked at, ms. */
  stemCheckMs: number;
  /** Private transaction relay: epochs, embargoes, stem limits. */
  dandelion: DandelionSettings;
  /** At most one sync progress line per this many ms. */
  syncProgressMs: number;
  /** Replay the chain from genesis even when the chain is empty (no fast sync). */
  fullSync: boolean;
  /** Smallest snapshot height a fast sync is worth (a shorter chain is replayed). */
  fastSyncMinHeight: number;
}

export const DEFAULT_SETTINGS: Omit<
  P2pSettings,
  'bind' | 'addPeers' | 'seedPeers' | 'maxPeers' | 'maxPerIp' | 'noPeerWarningMs' | 'fullSync' | 'fastSyncMinHeight'
> = {
  timings: DEFAULT_TIMINGS,
  banMs: 10 * 60_000,
  maintainMs: 5_000,
  exchangeMs: 120_000,
  stemCheckMs: 500,
  dandelion: DEFAULT_DANDELION,
  syncProgressMs: 3_000,
};

export interface P2pDeps {
  network: string;
  chain: ChainService;
  snapshots: SnapshotService;
  core: Core;
  store: KeyValueStore;
  logger: Logger;
  txPool: () => TxPoolService | undefined;
  /** The mining plugin's miniblock pool, when it runs (started before P2P). */
  miniblocks?: MiniblockPoolService;
}

export class P2pNode {
  private readonly manager: PeerManager;
  private readonly book: PeerBook;
  private readonly bans: Bans;
  private readonly sync: ChainSync;
  private readonly fastSync: FastSync;
  private readonly snapshotServer: SnapshotServer;
  private readonly progress: SyncProgress;
  private readonly blocks: BlockRelay;
  private readonly txs: TxRelay;
  private readonly miniblocks: MiniblockRelay | undefined;
  private readonly noPeerWarning: NoPeerWarning;
  private readonly seedPeers: readonly string[];
  private readonly store: KeyValueStore;
  private readonly settings: P2pSettings;
  private readonly logger: Logger;
  /** The libp2p node's start, once something needs it: a listener, a peer to dial. */
  private transportStarted: Promise<void> | undefined;
  private stopped = false;
  /** The gossip topics (new blocks, miniblocks and fluffed transactions travel there). */
  readonly gossip: Gossip;

  constructor(deps: P2pDeps, settings: P2pSettings) {
    const { chain, core, store, logger } = deps;
    this.seedPeers = settings.seedPeers;
    this.store = store;
    this.settings = settings;
    this.logger = logger;
    this.book = new PeerBook(store, logger);
    this.bans = new Bans(store, logger, settings.banMs);
    const gossip = (this.gossip = new Gossip(deps.network));
    this.manager = new PeerManager({
      identity: { network: deps.network, genesis: chain.metaAtTopo(0n)!.id, nodeId: new Uint8Array(16), port: 0 },
      chain,
      book: this.book,
      bans: this.bans,
      logger,
      bind: settings.bind,
      addPeers: settings.addPeers,
      maxPeers: settings.maxPeers,
      maxPerIp: settings.maxPerIp,
      plaintext: settings.plaintext,
      timings: settings.timings,
      maintainMs: settings.maintainMs,
      exchangeMs: settings.exchangeMs,
      gossip,
    });
    const peers = (): Peer[] => this.manager.ready();
    const penalise = (peer: Peer, points: number, reason: string): void => this.manager.penalise(peer, points, reason);
    const transactions = new BlockTransactions(chain, deps.txPool);
    const intake = new BlockIntake(chain, core, transactions, penalise);
    this.progress = new SyncProgress((line) => logger.info(line), settings.syncProgressMs);
    this.fastSync = new FastSync(
      { chain, snapshots: deps.snapshots, store, core, peers, penalise, logger },
      settings.fastSyncMinHeight,
      settings.fullSync,
      () => this.sync.consider(),
    );
    this.snapshotServer = new SnapshotServer(chain, deps.snapshots);
    // Whatever would start a chain sync (a peer with more work) makes fast sync look first, while it is pending.
    const fastSyncFirst = (): boolean => {
      if (this.fastSync.pending) this.fastSync.consider();
      return this.fastSync.pending;
    };
    this.sync = new ChainSync(chain, intake, peers, logger, this.progress, penalise, fastSyncFirst);
    // Gossip names its forwarder by peer id; ban points go to the address of our connection with it.
    const peerOf = (peerId: string): Peer | undefined => peers().find((p) => p.peerId === peerId);
    const blockGossip = new BlockGossip({
      chain,
      core,
      intake,
      transactions,
      sync: this.sync,
      gossip,
      peerOf,
      penalise,
      logger,
    });
    this.blocks = new BlockRelay(chain, intake, transactions, this.sync, blockGossip, peers, penalise, logger);
    this.txs = new TxRelay({ pool: deps.txPool, gossip, peers, logger }, settings.stemCheckMs, settings.dandelion);
    this.miniblocks = deps.miniblocks && new MiniblockRelay(deps.miniblocks, gossip, peerOf, penalise, logger);
    this.manager.onReady = (peer) => {
      this.blocks.greet(peer);
      this.sync.consider();
      this.txs.greet(peer);
    };
    this.manager.onMessage = (peer, message) => this.route(peer, message);
    this.noPeerWarning = new NoPeerWarning(
      () => this.manager.ready().length,
      settings.noPeerWarningMs,
      (aloneMs) => {
        const seeded = this.seed();
        logger.warn(
          `no P2P peer for ${Math.round(aloneMs / 1000)} s: this node cannot sync nor relay blocks. ` +
            `Give it peers with --add-peer host:port (config key addPeers) or seedPeers in the config file` +
            (seeded ? `; dialling the ${seeded} seed peers` : ''),
        );
      },
    );
  }

  async start(): Promise<void> {
    await Promise.all([this.book.load(), this.bans.load()]);
    this.seed();
    this.txs.start();
    const { bind, addPeers } = this.settings;
    if (bind || addPeers.length > 0 || this.book.whiteSize + this.book.greySize > 0) await this.startTransport();
    else this.logger.info('P2P idle: no --p2p-bind and no peer to dial (--add-peer, seedPeers, the peer book)');
    this.noPeerWarning.start();
  }

  /** Starts the libp2p node (listening, dialling) on first need; a node with nothing to connect to never loads it. */
  private startTransport(): Promise<void> {
    this.transportStarted ??= (async () => {
      // Loaded here, not imported: the key code is libp2p's too.
      const { loadNodeKey } = await import('./node-key.js');
      await this.manager.start(await loadNodeKey(this.store));
    })();
    return this.transportStarted;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.transportStarted?.catch(() => {});
    this.fastSync.stop();
    this.noPeerWarning.stop();
    this.txs.stop();
    this.miniblocks?.stop();
    this.blocks.stop();
    await this.manager.stop();
    await Promise.all([this.book.flush(), this.bans.flush()]);
  }

  /** The port P2P listens on (0 when it does not). */
  get port(): number {
    return this.manager.identity.port;
  }

  /** The node's libp2p peer id, from its node key; empty while libp2p is not started (nothing to connect to). */
  get peerId(): string {
    return this.manager.peerId;
  }

  /** Dials a peer (`host:port[/p2p/<peer id>]`); resolves once connected, before the handshake completes. */
  async connect(address: string): Promise<Peer> {
    if (!this.stopped) await this.startTransport();
    return this.manager.connect(address);
  }

  /** Peers that completed the handshake. */
  peers(): Peer[] {
    return this.manager.ready();
  }

  /** The running chain sync's figures, if a sync runs. */
  syncStatus(): SyncSnapshot | undefined {
    return this.progress.snapshot();
  }

  /** The running fast sync's phase and progress, if one runs. */
  fastSyncStatus(): FastSyncStatus | undefined {
    return this.fastSync.status();
  }

  /** The figures NODE.GetInfo reports. */
  counts(): PeerCounts {
    return this.manager.counts();
  }

  /** Puts the seed peers in an empty peer book (the manager dials from it); returns how many were added. */
  private seed(): number {
    if (this.book.whiteSize + this.book.greySize > 0) return 0;
    for (const address of this.seedPeers) this.book.heardOf(address);
    return this.seedPeers.length;
  }

  private route(peer: Peer, message: Message): void {
    switch (message.type) {
      case 'newBlock':
        return void this.blocks.onNewBlock(peer, message.body);
      case 'getBlocks':
        return this.blocks.serve(peer, message.body);
      case 'getChain':
        return this.sync.serve(peer, message.body);
      case 'newTxs':
        return void this.txs.onNewTxs(peer, message.body);
      case 'getTxs':
        return this.txs.serve(peer, message.body);
      case 'stemTx':
        return this.txs.onStemTx(peer, message.body);
      case 'getHeaders':
        return this.snapshotServer.serveHeaders(peer, message.body);
      case 'getChunk':
        return this.snapshotServer.serveChunk(peer, message.body);
    }
  }
}
