/**
 * A hand-driven P2P client for tests: a bare libp2p node (TCP, Noise, yamux, identify, gossipsub) dialling from a
 * chosen loopback address, that opens our protocol stream and speaks (or breaks) the wire protocol on it, and can
 * publish on the gossip topics.
 */
import { randomBytes } from 'node:crypto';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { gossipsub, StrictNoSign } from '@libp2p/gossipsub';
import { identify } from '@libp2p/identify';
import { tcp } from '@libp2p/tcp';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import { protocolOf } from '../../plugins/p2p/handshake.js';
import { decodeMessage, encodeMessage } from '../../plugins/p2p/wire/codec.js';
import { FrameDecoder } from '../../plugins/p2p/wire/frame.js';
import { frameLimitOf, type Body, type Message, type MessageName } from '../../plugins/p2p/wire/messages.js';
import { waitUntil, type TestNode } from './p2p.js';

export interface RawPeer {
  received: Message[];
  closed: () => boolean;
  /** Raw bytes onto the stream. */
  write(bytes: Uint8Array): void;
  send<N extends MessageName>(type: N, body: Body<N>): void;
  /** Waits for the first received message of a type. */
  next<N extends MessageName>(type: N): Promise<Extract<Message, { type: N }>>;
  /** Publishes `data` on a gossip topic (`miniblocks`…) once the node is known to subscribe to it. */
  publish(name: string, data: Uint8Array): Promise<void>;
  /** Drops the connection. */
  close(): Promise<void>;
}

/**
 * Connects to `port` from `localAddress` (any 127.x.y.z works on Linux, so bans of one do not touch the others). A
 * refused connection gives a peer that is closed from the start and received nothing.
 */
export async function rawPeer(port: number, localAddress: string, network = 'simulator'): Promise<RawPeer> {
  const node = await createLibp2p({
    transports: [tcp({ dialOpts: { localAddress } as never })],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: {
      identify: identify(),
      pubsub: gossipsub({ globalSignaturePolicy: StrictNoSign, allowPublishToZeroTopicPeers: true }),
    },
  });
  const decoder = new FrameDecoder(frameLimitOf);
  const received: Message[] = [];
  let ended = false;
  const end = (): void => {
    ended = true;
    void node.stop();
  };
  const stream = await node
    .dial(multiaddr(`/ip4/127.0.0.1/tcp/${port}`))
    .then((connection) => connection.newStream(protocolOf(network)))
    .catch(() => undefined);
  if (stream) {
    stream.addEventListener('message', (event) => {
      const chunk = event.data instanceof Uint8Array ? event.data : event.data.subarray();
      for (const frame of decoder.push(chunk)) received.push(decodeMessage(frame));
    });
    stream.addEventListener('remoteCloseWrite', end);
    stream.addEventListener('close', end);
  } else end();
  return {
    received,
    closed: () => ended,
    write: (bytes) => void (ended || stream?.send(bytes)),
    send: (type, body) => void (ended || stream?.send(encodeMessage(type, body))),
    async next(type) {
      await waitUntil(`a ${type} message arrives`, () => received.some((m) => m.type === type), 10_000);
      return received.find((m) => m.type === type) as never;
    },
    async publish(name, data) {
      const topic = `/umbra/${network}/${name}/1`;
      await waitUntil(`the node subscribes to ${topic}`, () => node.services.pubsub.getSubscribers(topic).length > 0);
      await node.services.pubsub.publish(topic, data);
    },
    close: async () => void (await node.stop()),
  };
}

/**
 * A raw peer that answers `hello` claiming `honest`'s chain with `extraWork` more cumulative work, so that the node on
 * `port` takes it for the best peer and syncs from it.
 */
export async function peerClaimingChainOf(
  port: number,
  localAddress: string,
  honest: TestNode,
  extraWork: bigint,
): Promise<RawPeer> {
  const peer = await rawPeer(port, localAddress);
  const { body: hello } = await peer.next('hello');
  peer.send('hello', {
    ...hello,
    nodeId: randomBytes(16),
    port: 0,
    height: Number(honest.chain.top.height),
    work: honest.chain.top.cumulativeWork + extraWork,
    top: honest.chain.top.id,
  });
  return peer;
}
