/**
 * The libp2p node under our protocol: TCP, Noise (XX, authenticated by the node key) and yamux, with identify, ping
 * and gossipsub. Connection limits live here: at most `maxPeers` connections (libp2p's connection manager), at most
 * `maxPerIp` from one remote IP, counting those still in their handshake, and none from a banned one (a connection
 * gater, checked before any handshake), and few handshakes in progress per network (handshake-slots.ts), each cut
 * off after INBOUND_HANDSHAKE_MS.
 * libp2p's modules (some 700, tens of MiB) load when the first transport is made: a node that neither listens nor
 * dials (the simulator) never loads them.
 */
import type { GossipSub } from '@libp2p/gossipsub';
import type { ConnectionGater, MultiaddrConnection, PrivateKey } from '@libp2p/interface';
import { createHash } from 'node:crypto';
import type { Libp2p } from 'libp2p';
import { MAX_GOSSIP_BLOCK_BYTES } from './block-gossip.js';
import { HANDSHAKES_PER_NETWORK, HandshakeSlots } from './handshake-slots.js';
import { nodeNoiseCrypto } from './noise-crypto.js';
import { hostAndPortOf, multiaddrOf } from './peer-address.js';
import type { RefusalReason } from './refusal-log.js';

export interface TransportOptions {
  privateKey: PrivateKey;
  /** `host:port` to listen on, or undefined for none. */
  listen: { host: string; port: number } | undefined;
  maxPeers: number;
  maxPerIp: number;
  isBanned(host: string): boolean;
  /** Time a dial has to connect and complete the encrypted handshake, ms. */
  dialTimeoutMs: number;
  /** Told of each inbound connection refused before its handshake, and why. */
  onRefused?(host: string, reason: RefusalReason): void;
  /** Unencrypted connections: for the bench's baseline only. */
  plaintext?: boolean;
}

/** A node syncing pulls whole batches of blocks through one stream: a larger window than yamux's 256 KiB keeps it busy. */
const STREAM_WINDOW = 4 * 1024 * 1024;

/**
 * Time an incoming connection has to complete the encrypted handshake, ms: an idle socket is dropped after it. Several
 * round trips of the slowest links (~300 ms each), with room for a busy host.
 */
const INBOUND_HANDSHAKE_MS = 5_000;

/**
 * Incoming handshakes in progress at once, node-wide. The per-address and per-network shares (handshake-slots.ts) are
 * a small fraction of it: many distinct networks are needed to fill it.
 */
const MAX_PENDING_HANDSHAKES = 128;

/** Largest gossipsub frame taken from a peer: a blocks topic message (block-gossip.ts) with room for the framing. */
const GOSSIP_FRAME_LIMIT = MAX_GOSSIP_BLOCK_BYTES + 64 * 1024;

export type Transport = Libp2p<{ pubsub: GossipSub }>;

export async function createTransport(options: TransportOptions): Promise<Transport> {
  const [
    { noise },
    { yamux },
    { gossipsub, StrictNoSign },
    { identify },
    { ping },
    { plaintext },
    { tcp },
    { createLibp2p },
  ] = await Promise.all([
    import('@chainsafe/libp2p-noise'),
    import('@chainsafe/libp2p-yamux'),
    import('@libp2p/gossipsub'),
    import('@libp2p/identify'),
    import('@libp2p/ping'),
    import('@libp2p/plaintext'),
    import('@libp2p/tcp'),
    import('libp2p'),
  ]);
  let node: Transport | undefined;
  const connectionsFrom = (host: string): number =>
    (node?.getConnections() ?? []).filter((c) => hostAndPortOf(c.remoteAddr).host === host).length;
  const slots = new HandshakeSlots({ perAddress: options.maxPerIp, perNetwork: HANDSHAKES_PER_NETWORK });
  // The slot a connection in its handshake holds, given back when the handshake completes or the connection ends.
  const heldSlot = new WeakMap<MultiaddrConnection, () => void>();
  const gater: ConnectionGater = {
    denyDialMultiaddr: (address) => options.isBanned(hostAndPortOf(address).host),
    denyInboundConnection: (connection) => {
      const { host } = hostAndPortOf(connection.remoteAddr);
      if (options.isBanned(host)) {
        options.onRefused?.(host, 'banned');
        return true;
      }
      const established = connectionsFrom(host);
      const release = slots.take(host, established);
      if (!release) {
        options.onRefused?.(host, slots.full(host, established)!);
        return true;
      }
      heldSlot.set(connection, release);
      connection.addEventListener('close', release, { once: true });
      return false;
    },
    denyInboundUpgradedConnection: (_peer, connection) => {
      heldSlot.get(connection)?.();
      return false;
    },
  };
  node = await createLibp2p({
    privateKey: options.privateKey,
    addresses: {
      listen: options.listen ? [multiaddrOf({ ...options.listen, address: '', peerId: undefined }).toString()] : [],
    },
    transports: [tcp()],
    connectionEncrypters: [options.plaintext ? plaintext() : noise({ crypto: nodeNoiseCrypto })],
    streamMuxers: [
      yamux({ streamOptions: { initialStreamWindowSize: STREAM_WINDOW, maxStreamWindowSize: STREAM_WINDOW } }),
    ],
    connectionGater: gater,
    connectionManager: {
      maxConnections: options.maxPeers,
      dialTimeout: options.dialTimeoutMs,
      inboundUpgradeTimeout: INBOUND_HANDSHAKE_MS,
      maxIncomingPendingConnections: MAX_PENDING_HANDSHAKES,
    },
    services: {
      identify: identify(),
      ping: ping(),
      // Gossip is unsigned and named by its content: what makes a message acceptable is what it holds, checked by the
      // topic validators, and the same miniblock reaching a node by two routes is one message.
      pubsub: gossipsub({
        globalSignaturePolicy: StrictNoSign,
        msgIdFn: (message) => createHash('sha256').update(message.topic).update(message.data).digest(),
        allowPublishToZeroTopicPeers: true,
        ignoreDuplicatePublishError: true,
        maxInboundDataLength: GOSSIP_FRAME_LIMIT,
      }),
    },
  });
  return node;
}
