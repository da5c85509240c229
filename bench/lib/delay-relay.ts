/**
 * A link with WAN latency between two loopback daemons, in user space: a TCP relay that listens on one address,
 * connects to the far node from an address of its own, and holds every chunk for the link's one-way delay before
 * passing it on, both ways (in order: one delay per link). A link carries one connection at a time: a node that heard
 * of the relay's address from a neighbour cannot open a second path through it, and where each node has an address of
 * its own (`onlyFrom`), no node but the link's own can take it. It counts the bytes that cross, and can be cut (its
 * connection dropped, new ones refused) and restored, to partition a network.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface DelayRelay {
  /** `host:port` to dial for the far node. */
  readonly address: string;
  readonly delayMs: number;
  /** Bytes that crossed, both ways. */
  bytes(): number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function delayRelay(
  listenHost: string,
  target: { host: string; port: number },
  fromHost: string,
  delayMs: number,
  onlyFrom?: string,
): Promise<DelayRelay> {
  const sockets = new Set<Socket>();
  let crossed = 0;
  let cut = false;
  const pass = (from: Socket, to: Socket): void => {
    from.on('data', (chunk: Buffer) => {
      crossed += chunk.length;
      setTimeout(() => to.write(chunk), delayMs).unref();
    });
    from.on('close', () => setTimeout(() => to.destroy(), delayMs).unref());
    from.on('error', () => to.destroy());
  };
  const server = createServer((inbound) => {
    const stranger = onlyFrom !== undefined && inbound.remoteAddress?.replace(/^::ffff:/, '') !== onlyFrom;
    if (cut || stranger || sockets.size > 0) return void inbound.destroy();
    const outbound = connect({ host: target.host, port: target.port, localAddress: fromHost });
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    pass(inbound, outbound);
    pass(outbound, inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, listenHost, resolve));
  return {
    address: `${listenHost}:${(server.address() as AddressInfo).port}`,
    delayMs,
    bytes: () => crossed,
    cut: () => {
      cut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore: () => {
      cut = false;
    },
    close: async () => {
      cut = true;
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
