/**
 * Frames on a TCP stream: a 4-byte big-endian body length, a 1-byte message kind, then the body. The kind comes
 * before the body so that a frame too large for its kind is refused from its 5-byte header, before any of it is
 * buffered.
 */
import { UmbraError } from '../../../core-native/ts/errors.js';
import { P2pErrorCode } from '../p2p-errors.js';

const FRAME_HEADER_BYTES = 5;

/** A stream that breaks the framing rules; the connection cannot continue. */
export class FrameError extends UmbraError<P2pErrorCode> {
  override readonly name = 'FrameError';
  constructor(message: string) {
    super(P2pErrorCode.BadFrame, message);
  }
}

export interface Frame {
  kind: number;
  body: Uint8Array;
}

export function encodeFrame(kind: number, body: Uint8Array): Uint8Array {
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + body.length);
  frame.writeUInt32BE(body.length, 0);
  frame.writeUInt8(kind, 4);
  frame.set(body, FRAME_HEADER_BYTES);
  return frame;
}

/**
 * Reassembles frames from stream chunks. `limitOf(kind)` is the largest body a kind may have, or undefined for a kind
 * that does not exist; either violation throws a FrameError.
 */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private header: { kind: number; length: number } | undefined;

  constructor(private readonly limitOf: (kind: number) => number | undefined) {}

  /** Adds a chunk and returns every frame it completes. */
  push(chunk: Uint8Array): Frame[] {
    this.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.buffered += chunk.byteLength;
    const frames: Frame[] = [];
    for (;;) {
      if (!this.header) {
        if (this.buffered < FRAME_HEADER_BYTES) return frames;
        const head = this.take(FRAME_HEADER_BYTES);
        const length = head.readUInt32BE(0);
        const kind = head.readUInt8(4);
        const limit = this.limitOf(kind);
        if (limit === undefined) throw new FrameError(`unknown message kind ${kind}`);
        if (length > limit)
          throw new FrameError(`frame of ${length} bytes exceeds the ${limit}-byte limit of message kind ${kind}`);
        this.header = { kind, length };
      }
      if (this.buffered < this.header.length) return frames;
      frames.push({ kind: this.header.kind, body: this.take(this.header.length) });
      this.header = undefined;
    }
  }

  /** Removes the first `count` buffered bytes (joining chunks only when a frame spans several). */
  private take(count: number): Buffer {
    const first = this.chunks[0];
    let out: Buffer;
    if (first && first.length >= count) {
      out = first.subarray(0, count);
      if (first.length === count) this.chunks.shift();
      else this.chunks[0] = first.subarray(count);
    } else {
      const joined = Buffer.concat(this.chunks, this.buffered);
      out = joined.subarray(0, count);
      this.chunks = joined.length > count ? [joined.subarray(count)] : [];
    }
    this.buffered -= count;
    return out;
  }
}
