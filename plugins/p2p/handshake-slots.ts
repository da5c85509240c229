/**
 * Accept-side accounting of connections still in their encrypted handshake. libp2p admits a fixed number of them at
 * once for the whole node, each for up to its upgrade timeout, and counts a remote address's connections only once
 * their handshake is done: a single host holding a dozen idle sockets would fill them all and keep every honest peer
 * out. Here a remote address may have no more connections, finished or in their handshake, than it may have at all,
 * and a /24 (IPv4) or /64 (IPv6) network only a few handshakes in progress, far fewer than the node-wide limit, so
 * that a joining peer always finds a free one.
 */
import { isIPv4, isIPv6 } from 'node:net';

export interface HandshakeLimits {
  /** Connections from one remote address, finished or in their handshake. */
  perAddress: number;
  /** Handshakes in progress from one /24 (IPv4) or /64 (IPv6) network. */
  perNetwork: number;
}

/** Handshakes in progress from one network, by default. */
export const HANDSHAKES_PER_NETWORK = 8;

/** The network an address belongs to for these limits: its /24 (IPv4) or /64 (IPv6) prefix. */
export function networkOf(host: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(host);
  const address = mapped ? mapped[1]! : host;
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const groups = head ? head.split(':') : [];
  if (tail !== undefined) {
    const after = tail ? tail.split(':') : [];
    groups.push(...new Array<string>(Math.max(0, 8 - groups.length - after.length)).fill('0'), ...after);
  }
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** The share a handshake would go over: its address's connections, or its network's handshakes in progress. */
export type FullShare = 'address' | 'network';

export class HandshakeSlots {
  private readonly byAddress = new Map<string, number>();
  private readonly byNetwork = new Map<string, number>();

  constructor(private readonly limits: HandshakeLimits) {}

  /** Which share a handshake from `host`, which has `established` finished connections, would go over, if any. */
  full(host: string, established: number): FullShare | undefined {
    if (established + (this.byAddress.get(host) ?? 0) >= this.limits.perAddress) return 'address';
    if ((this.byNetwork.get(networkOf(host)) ?? 0) >= this.limits.perNetwork) return 'network';
    return undefined;
  }

  /**
   * Takes a slot for a handshake from `host`, which has `established` finished connections: the function that gives
   * it back (call it once the handshake is over, either way; further calls do nothing), or undefined when the address
   * or its network holds its share already (`full` says which).
   */
  take(host: string, established: number): (() => void) | undefined {
    const network = networkOf(host);
    if (this.full(host, established)) return undefined;
    adjust(this.byAddress, host, 1);
    adjust(this.byNetwork, network, 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      adjust(this.byAddress, host, -1);
      adjust(this.byNetwork, network, -1);
    };
  }
}

function adjust(counts: Map<string, number>, key: string, by: number): void {
  const count = (counts.get(key) ?? 0) + by;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}
