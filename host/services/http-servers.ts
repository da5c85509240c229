import type { Server } from 'node:http';

/** The HTTP servers the `rpc-http` plugin runs, one per RPC endpoint; other transports (WebSocket) attach to them. */
export interface HttpServers {
  /** The listening server of an endpoint (`daemon`, `wallet`), once started. */
  get(endpointName: string): Server | undefined;
  /** Called with each server as soon as it exists (at once for servers already started). */
  onServer(listener: (endpointName: string, server: Server) => void): void;
}
