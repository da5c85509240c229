/**
 * A Link over a libp2p stream: the one stream of our protocol that a connection carries. Ending the link closes the
 * whole connection, so that a closed peer (refused, banned, gone quiet) leaves nothing open behind it.
 */
import type { Connection, Stream } from '@libp2p/interface';
import type { Link, LinkEvents } from './link.js';
import { hostAndPortOf } from './peer-address.js';

/** libp2p resets a stream whose send buffer passes its limit; ours (the Peer's backlog check) must come first. */
const STREAM_WRITE_BUFFER = 256 * 1024 * 1024;
const LINGER_MS = 1000;

export class StreamLink implements Link {
  readonly host: string;
  readonly port: number;
  readonly peerId: string;

  constructor(
    private readonly stream: Stream,
    private readonly connection: Connection,
  ) {
    stream.maxWriteBufferLength = STREAM_WRITE_BUFFER;
    ({ host: this.host, port: this.port } = hostAndPortOf(connection.remoteAddr));
    this.peerId = connection.remotePeer.toString();
  }

  get backlog(): number {
    return this.stream.writeBufferLength;
  }

  get ended(): boolean {
    return this.stream.writeStatus !== 'writable';
  }

  listen(events: LinkEvents): void {
    this.stream.addEventListener('message', (event) =>
      events.data(event.data instanceof Uint8Array ? event.data : event.data.subarray()),
    );
    this.stream.addEventListener('remoteCloseWrite', () => events.close());
    this.stream.addEventListener('close', (event) => (event.error ? events.error(event.error) : events.close()));
  }

  write(bytes: Uint8Array): void {
    if (!this.ended) this.stream.send(bytes);
  }

  end(): void {
    const abort = (): void => void this.connection.abort(new Error('closed'));
    const lingering = setTimeout(abort, LINGER_MS).unref();
    this.stream
      .close()
      .then(() => this.connection.close())
      .catch(abort)
      .finally(() => clearTimeout(lingering));
  }
}
