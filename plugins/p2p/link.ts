/** What a Peer needs of its connection: a reliable, ordered byte channel to one remote node. */
export interface LinkEvents {
  data(chunk: Uint8Array): void;
  error(error: Error): void;
  /** The remote end closed, or the connection went away. */
  close(): void;
}

export interface Link {
  /** The remote IP address (what bans apply to). */
  readonly host: string;
  readonly port: number;
  /** The peer id the remote proved in the encrypted handshake. */
  readonly peerId: string;
  /** Bytes written and not yet handed to the network. */
  readonly backlog: number;
  /** True once nothing more can be written. */
  readonly ended: boolean;
  listen(events: LinkEvents): void;
  write(bytes: Uint8Array): void;
  /** Sends what is queued, then closes; a remote that lingers is cut off after a moment. */
  end(): void;
}
