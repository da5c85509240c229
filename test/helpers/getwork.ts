/** A raw getwork connection for tests: every message the server sent, waited for by predicate, and how it closed. */
import WebSocket from 'ws';
import { getworkPath, type ServerMessage } from '../../host/mining/getwork-protocol.js';
import { Inbox } from './inbox.js';

export class GetworkPeer {
  /** Code and reason of the close, once closed. */
  closed: Promise<{ code: number; reason: string }>;
  private readonly inbox = new Inbox<ServerMessage>();

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.inbox.push(JSON.parse(data.toString()) as ServerMessage);
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  /** Every message the server sent so far, in order. */
  get received(): ServerMessage[] {
    return this.inbox.items;
  }

  /** Connects to the getwork server at `hostPort` as `address` (or to `path` when given). */
  static connect(hostPort: string, address: string, path = getworkPath(address)): Promise<GetworkPeer> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://${hostPort}${path}`);
      const peer = new GetworkPeer(ws);
      ws.once('open', () => resolve(peer));
      ws.once('error', reject);
    });
  }

  /** The first message (received or to come) that `matches`. */
  next<T extends ServerMessage>(
    matches: (message: ServerMessage) => boolean,
    what: string,
    timeoutMs = 20_000,
  ): Promise<T> {
    return this.inbox.next(matches, what, timeoutMs) as Promise<T>;
  }

  send(data: string | Buffer): void {
    this.ws.send(data);
  }
}

/** The getwork port a daemon logged (`getwork server listening on ws://HOST:PORT/ws/<address>`). */
export function getworkPortIn(log: string): number | undefined {
  const match = /getwork server listening on ws:\/\/[^:]+:(\d+)\//.exec(log);
  return match ? Number(match[1]) : undefined;
}
