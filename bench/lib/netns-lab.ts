/**
 * Network namespaces for the network bench's process mode (root only; `ip netns`). In this namespace, a bridge
 * `umbnet-br` holding 10.77.0.1/16; per node a namespace `umbnet-<i>` whose eth0, a veth to the bridge, holds
 * 10.77.<1 + ⌊i/250⌋>.<i mod 250 + 1>/32 and reaches the rest of 10.77/16 through 10.77.0.1. That way a node's only
 * neighbour is the bridge: the kernel's neighbour (ARP) table is one for all namespaces (1 024 entries by default), and
 * fifty namespaces on one subnet, each resolving every relay, stranger and node it talks to, overflow it, so that
 * packets are dropped and connections time out. It also keeps nodes from reaching each other but through the links'
 * relays while this namespace does not forward (net.ipv4.ip_forward 0, the default). Addresses for the links' relays
 * (link l: 10.77.<100 + l mod 100>.<⌊l/100⌋ + 1>) and for strangers (k: 10.77.<200 + k mod 50>.<⌊k/50⌋ + 1>) are
 * added to the bridge as /32s, each in a /24 of its own as far as they go (a node limits handshakes per /24), so that
 * relays and flooders here connect from addresses of their own. Everything it creates is named `umbnet-…`: removing
 * the lab kills what runs in those namespaces and deletes them and the bridge, and creating one first removes what a
 * killed run left.
 */
import { execFileSync } from 'node:child_process';

const PREFIX = 'umbnet-';
const BRIDGE = `${PREFIX}br`;
const GATEWAY = '10.77.0.1';

function ip(...args: string[]): string {
  try {
    return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`ip ${args.join(' ')} failed: ${stderr || (error as Error).message} (the netns mode needs root)`);
  }
}

/** Kills every process in the lab's namespaces and deletes them and the bridge; nothing of another name is touched. */
export function removeLab(): void {
  const namespaces = ip('netns', 'list')
    .split('\n')
    .map((line) => line.split(' ')[0]!)
    .filter((name) => name.startsWith(PREFIX));
  for (const namespace of namespaces) {
    for (const pid of ip('netns', 'pids', namespace).split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // It ended meanwhile.
      }
    }
    ip('netns', 'del', namespace);
  }
  // A deleted namespace's veth can outlive it for a while (the kernel frees the namespace later): delete it here.
  const links = ip('-o', 'link', 'show')
    .split('\n')
    .map((line) => /^\d+: ([^:@]+)/.exec(line)?.[1])
    .filter((name): name is string => name?.startsWith(PREFIX) ?? false);
  for (const name of links.filter((name) => name !== BRIDGE)) {
    try {
      ip('link', 'del', name);
    } catch {
      // Gone with its namespace meanwhile.
    }
  }
  if (links.includes(BRIDGE)) ip('link', 'del', BRIDGE);
}

/** 10.77.<base + index mod networks>.<⌊index/networks⌋ + 1>: spread over `networks` /24s. */
const addressIn = (base: number, networks: number, index: number): string =>
  `10.77.${base + (index % networks)}.${Math.floor(index / networks) + 1}`;
const nodeAddress = (index: number): string => `10.77.${1 + Math.floor(index / 250)}.${(index % 250) + 1}`;

export interface NetnsLab {
  /** Node `index`'s namespace, to run its daemon in (`ip netns exec <namespace> …`). */
  namespace(index: number): string;
  /** Node `index`'s address, on its namespace's eth0. */
  nodeAddress(index: number): string;
  /** A new address in this namespace for link `index`'s relay (it listens and connects from there). */
  linkAddress(index: number): string;
  /** A new address in this namespace for stranger `index`. */
  strangerAddress(index: number): string;
}

/** Creates a bridge and `nodes` namespaces on it (after removing any leftovers). */
export function createLab(nodes: number): NetnsLab {
  removeLab();
  ip('link', 'add', BRIDGE, 'type', 'bridge');
  ip('addr', 'add', `${GATEWAY}/16`, 'dev', BRIDGE);
  ip('link', 'set', BRIDGE, 'up');
  const namespace = (index: number): string => `${PREFIX}${index}`;
  for (let index = 0; index < nodes; index++) {
    const ns = namespace(index);
    ip('netns', 'add', ns);
    ip('link', 'add', `${PREFIX}v${index}`, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns);
    ip('link', 'set', `${PREFIX}v${index}`, 'master', BRIDGE, 'up');
    ip('-n', ns, 'addr', 'add', `${nodeAddress(index)}/32`, 'dev', 'eth0');
    ip('-n', ns, 'link', 'set', 'eth0', 'up');
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    ip('-n', ns, 'route', 'add', GATEWAY, 'dev', 'eth0');
    ip('-n', ns, 'route', 'add', '10.77.0.0/16', 'via', GATEWAY, 'dev', 'eth0');
  }
  const added = (address: string): string => {
    ip('addr', 'add', `${address}/32`, 'dev', BRIDGE);
    return address;
  };
  return {
    namespace,
    nodeAddress,
    linkAddress: (index) => added(addressIn(100, 100, index)),
    strangerAddress: (index) => added(addressIn(200, 50, index)),
  };
}
