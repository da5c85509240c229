/**
 * Message bodies in CBOR (cbor-x), as plain CBOR: maps with text keys, byte strings, integers (bignums for work),
 * text and arrays. cbor-x's own extensions (record structures, typed-array tags) are off so that any CBOR
 * implementation can speak the protocol.
 */
import { Encoder } from 'cbor-x';
import { encodeFrame, type Frame } from './frame.js';
import { MESSAGES, messageNameOf, type Body, type Message, type MessageName } from './messages.js';
import { ProtocolError } from './shape.js';

const cbor = new Encoder({ useRecords: false, mapsAsObjects: true, tagUint8Array: false });

/** The frame carrying one message. */
export function encodeMessage<N extends MessageName>(type: N, body: Body<N>): Uint8Array {
  return encodeFrame(MESSAGES[type].kind, cbor.encode(body));
}

/** Decodes and checks a frame's body; throws a ProtocolError when it is not valid CBOR of the kind's shape. */
export function decodeMessage(frame: Frame): Message {
  const type = messageNameOf(frame.kind);
  if (!type) throw new ProtocolError(`unknown message kind ${frame.kind}`);
  let value: unknown;
  try {
    value = cbor.decode(frame.body);
  } catch (error) {
    throw new ProtocolError(`${type} is not valid CBOR: ${(error as Error).message}`);
  }
  return { type, body: MESSAGES[type].shape(value, type) } as Message;
}
