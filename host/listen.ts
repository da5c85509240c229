/** Listening on a configured bind address, with failures said in words: which server, which address, why. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { parseBindAddress } from './config/schema.js';

/** Why a socket could not listen: the usual causes in words, anything else as the system says it. */
export function listenFailureReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'EADDRINUSE') return 'address already in use';
  if (code === 'EACCES') return 'permission denied';
  return message;
}

/** Makes `server` listen on `bind` (host:port); rejects with `cannot listen on BIND for WHAT: REASON`. */
export function listenOn(server: Server, bind: string, what: string): Promise<AddressInfo> {
  const { host, port } = parseBindAddress(bind);
  return new Promise((resolve, reject) => {
    const fail = (error: Error): void =>
      reject(new Error(`cannot listen on ${bind} for ${what}: ${listenFailureReason(error)}`));
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve(server.address() as AddressInfo);
    });
  });
}
