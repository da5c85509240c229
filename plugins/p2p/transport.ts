/**
 * The libp2p node under our protocol: TCP, Noise (XX, authenticated by the node key) and yamux, with identify and
 * ping. Connection limits live here: at most `maxPeers` connections (libp2p's connection manager), at most
 * `maxPerIp` from one remote IP and none from a banned one (a connection gater, checked before any handshake).
 */
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { identify } from '@libp2p/identify';
import type { ConnectionGater, PrivateKey } from '@libp2p/interface';
import { ping } from '@libp2p/ping';
import { plaintext } from '@libp2p/plaintext';
import { tcp } from '@libp2p/tcp';
import { createLibp2p, type Libp2p } from 'libp2p';
import { hostAndPortOf, multiaddrOf } from './peer-address.js';

export interface TransportOptions {
  privateKey: PrivateKey;
  /** `host:port` to listen on, or undefined for none. */
  listen: { host: string; port: number } | undefined;
  maxPeers: number;
  maxPerIp: number;
  isBanned(host: string): boolean;
  /** Time a dial has to connect and complete the encrypted handshake, ms. */
  dialTimeoutMs: number;
  /** Unencrypted connections: for the bench's baseline only. */
  plaintext?: boolean;
}

/** A node syncing pulls whole batches of blocks through one stream: a larger window than yamux's 256 KiB keeps it busy. */
const STREAM_WINDOW = 4 * 1024 * 1024;

export async function createTransport(options: TransportOptions): Promise<Libp2p> {
  let node: Libp2p | undefined;
  const connectionsFrom = (host: string): number =>
    (node?.getConnections() ?? []).filter((c) => hostAndPortOf(c.remoteAddr).host === host).length;
  const gater: ConnectionGater = {
    denyDialMultiaddr: (address) => options.isBanned(hostAndPortOf(address).host),
    denyInboundConnection: (connection) => {
      const { host } = hostAndPortOf(connection.remoteAddr);
      return options.isBanned(host) || connectionsFrom(host) >= options.maxPerIp;
    },
  };
  node = await createLibp2p({
    privateKey: options.privateKey,
    addresses: {
      listen: options.listen ? [multiaddrOf({ ...options.listen, address: '', peerId: undefined }).toString()] : [],
    },
    transports: [tcp()],
    connectionEncrypters: [options.plaintext ? plaintext() : noise()],
    streamMuxers: [
      yamux({ streamOptions: { initialStreamWindowSize: STREAM_WINDOW, maxStreamWindowSize: STREAM_WINDOW } }),
    ],
    connectionGater: gater,
    connectionManager: { maxConnections: options.maxPeers, dialTimeout: options.dialTimeoutMs },
    services: { identify: identify(), ping: ping() },
  });
  return node;
}
