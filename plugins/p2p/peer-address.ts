/**
 * Peer addresses as operators and peer exchange write them — `host:port`, optionally pinned to a node key as
 * `host:port/p2p/<peer id>` — and their libp2p multiaddr forms.
 */
import { isIP } from 'node:net';
import { multiaddr, type Multiaddr } from '@multiformats/multiaddr';
import { parseBindAddress } from '../../host/config/schema.js';

export interface PeerAddress {
  /** `host:port`, the form kept in the peer book and shared with peers. */
  address: string;
  host: string;
  port: number;
  /** The peer id the remote must prove in the encrypted handshake, when pinned. */
  peerId: string | undefined;
}

export function parsePeerAddress(text: string): PeerAddress {
  const [address = '', peerId] = text.split('/p2p/');
  const { host, port } = parseBindAddress(address);
  return { address, host, port, peerId };
}

/** `host:port` as a multiaddr (TCP over IPv4, IPv6 or a DNS name), with the pinned peer id when there is one. */
export function multiaddrOf({ host, port, peerId }: PeerAddress): Multiaddr {
  const kind = isIP(host) === 4 ? 'ip4' : isIP(host) === 6 ? 'ip6' : 'dns';
  return multiaddr(`/${kind}/${host}/tcp/${port}${peerId ? `/p2p/${peerId}` : ''}`);
}

/** The IP (or name) and TCP port of a connection's multiaddr. */
export function hostAndPortOf(address: Multiaddr): { host: string; port: number } {
  let host = 'unknown';
  let port = 0;
  for (const { name, value } of address.getComponents()) {
    if (value === undefined) continue;
    if (['ip4', 'ip6', 'dns', 'dns4', 'dns6'].includes(name)) host = value;
    if (name === 'tcp') port = Number(value);
  }
  return { host, port };
}

/** `host:port` with IPv6 hosts bracketed. */
export const joinHostPort = (host: string, port: number): string =>
  `${host.includes(':') ? `[${host}]` : host}:${port}`;
