/**
 * The handshake: each side's first message is a `hello` saying which protocol, network and chain it speaks and how
 * far its chain has got. Two nodes talk only when version, network and genesis agree; a node also refuses itself
 * (an address that loops back) by its node id, derived from its libp2p peer id.
 */
import { createHash } from 'node:crypto';
import type { PeerId } from '@libp2p/interface';
import { equalBytes, toHex } from '../../protocol/bytes.js';
import type { ChainService } from '../../host/services/chain.js';
import { PROTOCOL_VERSION, type Body } from './wire/messages.js';

export type Hello = Body<'hello'>;

export interface LocalIdentity {
  network: string;
  genesis: Uint8Array;
  nodeId: Uint8Array;
  /** The port we accept connections on, 0 when we do not listen. */
  port: number;
}

/** The libp2p protocol our messages run over: a node of another network does not even open the stream. */
export const protocolOf = (network: string): string => `/umbra/${network}/${PROTOCOL_VERSION}`;

/** The 16-byte node id of the hello, from the peer id the node proves in the encrypted handshake. */
export const nodeIdOf = (peerId: PeerId): Uint8Array =>
  createHash('sha256').update(peerId.toMultihash().bytes).digest().subarray(0, 16);

export function localHello(identity: LocalIdentity, chain: ChainService): Hello {
  const top = chain.top;
  return { version: PROTOCOL_VERSION, ...identity, height: Number(top.height), work: top.cumulativeWork, top: top.id };
}

/** Why a peer's hello is refused, or undefined when it is acceptable. */
export function refusalOf(ours: LocalIdentity, theirs: Hello): string | undefined {
  if (theirs.version !== PROTOCOL_VERSION)
    return `protocol version ${theirs.version}, this node speaks ${PROTOCOL_VERSION}`;
  if (theirs.network !== ours.network) return `network ${theirs.network}, this node is on ${ours.network}`;
  if (!equalBytes(theirs.genesis, ours.genesis))
    return `genesis ${toHex(theirs.genesis)}, this node's is ${toHex(ours.genesis)}`;
  if (equalBytes(theirs.nodeId, ours.nodeId)) return 'connected to itself';
  return undefined;
}
