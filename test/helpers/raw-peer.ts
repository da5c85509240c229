/** A hand-driven P2P client for tests: it speaks (or breaks) the wire protocol from a chosen loopback address. */
import { connect, type Socket } from 'node:net';
import { decodeMessage, encodeMessage } from '../../plugins/p2p/wire/codec.js';
import { FrameDecoder } from '../../plugins/p2p/wire/frame.js';
import { frameLimitOf, type Body, type Message, type MessageName } from '../../plugins/p2p/wire/messages.js';
import { waitUntil } from './p2p.js';

export interface RawPeer {
  socket: Socket;
  received: Message[];
  closed: () => boolean;
  send<N extends MessageName>(type: N, body: Body<N>): void;
  /** Waits for the first received message of a type. */
  next<N extends MessageName>(type: N): Promise<Extract<Message, { type: N }>>;
}

/** Connects to `port` from `localAddress` (any 127.x.y.z works on Linux, so bans of one do not touch the others). */
export async function rawPeer(port: number, localAddress: string): Promise<RawPeer> {
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const decoder = new FrameDecoder(frameLimitOf);
  const received: Message[] = [];
  let ended = false;
  socket.on('data', (chunk) => {
    for (const frame of decoder.push(chunk)) received.push(decodeMessage(frame));
  });
  socket.on('close', () => (ended = true));
  socket.on('error', () => (ended = true));
  return {
    socket,
    received,
    closed: () => ended,
    send: (type, body) => void socket.write(encodeMessage(type, body)),
    async next(type) {
      await waitUntil(`a ${type} message arrives`, () => received.some((m) => m.type === type), 10_000);
      return received.find((m) => m.type === type) as never;
    },
  };
}
