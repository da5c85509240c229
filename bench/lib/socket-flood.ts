/**
 * Strangers who hold sockets: from each of a set of local addresses, a number of TCP connections to a node's P2P port
 * that connect and send nothing. Each address opens its sockets one by one, slower than libp2p's per-host rate limit
 * (5 a second) lets through, and opens one again shortly after the node drops it, so that the pressure lasts until
 * `stop`. The network test and the network bench measure how a joining peer fares meanwhile.
 */
import { connect, type Socket } from 'node:net';

export interface SocketFlood {
  /** Sockets open right now. */
  open(): number;
  stop(): void;
}

/** The pause between two sockets of one address (a first opening, or a dropped one opened again), ms. */
export const SOCKET_PACE_MS = 250;

export function floodSockets(host: string, port: number, fromAddresses: readonly string[], each: number): SocketFlood {
  const sockets = new Set<Socket>();
  let stopped = false;
  const hold = (localAddress: string): void => {
    if (stopped) return;
    const socket = connect({ host, port, localAddress });
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      setTimeout(() => hold(localAddress), SOCKET_PACE_MS).unref();
    });
  };
  for (const address of fromAddresses)
    for (let i = 0; i < each; i++) setTimeout(() => hold(address), i * SOCKET_PACE_MS).unref();
  return {
    open: () => [...sockets].filter((socket) => !socket.connecting && !socket.destroyed).length,
    stop: () => {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}
