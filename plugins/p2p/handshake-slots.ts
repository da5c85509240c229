/**
 * Accept-side accounting of connections still in their encrypted handshake. libp2p admits a fixed number of them at
 * once for the whole node, each for up to its upgrade timeout: a single host holding a dozen idle sockets would fill
 * them all and keep every honest peer out. Here each remote address, and each /24 (IPv4) or /64 (IPv6) network, may
 * hold only a few of those slots, far fewer than the node-wide limit, so that a joining peer always finds one free.
 */
import { isIPv4, isIPv6 } from 'node:net';

export interface HandshakeLimits {
  /** Handshakes in progress from one remote address. */
  perAddress: number;
  /** Handshakes in progress from one /24 (IPv4) or /64 (IPv6) network. */
  perNetwork: number;
}

export const DEFAULT_HANDSHAKE_LIMITS: HandshakeLimits = { perAddress: 2, perNetwork: 6 };

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

export class HandshakeSlots {
  private readonly byAddress = new Map<string, number>();
  private readonly byNetwork = new Map<string, number>();

  constructor(private readonly limits: HandshakeLimits = DEFAULT_HANDSHAKE_LIMITS) {}

  /**
   * Takes a slot for a handshake from `host`: the function that gives it back (call it once the handshake is over,
   * either way; further calls do nothing), or undefined when the address or its network holds its share already.
   */
  take(host: string): (() => void) | undefined {
    const network = networkOf(host);
    if ((this.byAddress.get(host) ?? 0) >= this.limits.perAddress) return undefined;
    if ((this.byNetwork.get(network) ?? 0) >= this.limits.perNetwork) return undefined;
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
