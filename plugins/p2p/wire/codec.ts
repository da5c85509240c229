/**
 * Message bodies in CBOR (cbor-x), as plain CBOR: maps with text keys, byte strings, integers (bignums for work),
 * text and arrays. cbor-x's own extensions (record structures, typed-array tags) are off so that any CBOR
 * implementation can speak the protocol.
 */
import { Encoder } from 'cbor-x';
import { encodeFrame, type Frame } from './frame.js';
import { blockBody, MESSAGES, messageNameOf, type Body, type Message, type MessageName } from './messages.js';
import { ProtocolError, type Shape } from './shape.js';

const cbor = new Encoder({ useRecords: false, mapsAsObjects: true, tagUint8Array: false });

/** The frame carrying one message. */
export function encodeMessage<N extends MessageName>(type: N, body: Body<N>): Uint8Array {
  return encodeFrame(MESSAGES[type].kind, cbor.encode(body));
}

/** Decodes and checks a frame's body; throws a ProtocolError when it is not valid CBOR of the kind's shape. */
export function decodeMessage(frame: Frame): Message {
  const type = messageNameOf(frame.kind);
  if (!type) throw new ProtocolError(`unknown message kind ${frame.kind}`);
  return { type, body: decodeShaped<unknown>(frame.body, MESSAGES[type].shape, type) } as Message;
}

type BlockBody = Body<'blocks'>['blocks'][number];

/** A block with its transactions as the blocks gossip topic carries it: the CBOR of one `blocks` entry. */
export const encodeBlockBody = (body: BlockBody): Uint8Array => cbor.encode(body);

/** Decodes and checks a blocks topic message; throws a ProtocolError when it is not one. */
export const decodeBlockBody = (data: Uint8Array): BlockBody => decodeShaped(data, blockBody, 'gossiped block');

function decodeShaped<T>(data: Uint8Array, shape: Shape<T>, what: string): T {
  let value: unknown;
  try {
    value = cbor.decode(data);
  } catch (error) {
    throw new ProtocolError(`${what} is not valid CBOR: ${(error as Error).message}`);
  }
  return shape(value, what);
}
