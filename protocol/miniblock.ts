/**
 * The 48-byte miniblock, the unit of proof of work (docs/protocol.md § Miniblocks and proof of work):
 *
 *   byte 0      low 4 bits version (1); 0x10 HighDiff; 0x20 Final; bits 6–7 PastCount (0 or 1 in our linear chain)
 *   bytes 1–2   low 16 bits of the miner's clock in ms (informational)
 *   bytes 3–7   block height, 40-bit big-endian
 *   bytes 8–15  Past[0], Past[1]: first 4 bytes of each tip id, big-endian u32 (Past[1] = 0 with one tip)
 *   bytes 16–31 KeyHash: ordinary miniblock → first 16 bytes of BLAKE2s(miner key);
 *               final → first 16 bytes of SHA3-256(the block serialised with its first 9 miniblocks)
 *   bytes 32–35 Flags (free, an extra nonce)
 *   bytes 36–47 Nonce: 3 × u32 big-endian
 */
import { DecodeError } from './bytes.js';

export const MINIBLOCK_BYTES = 48;
export const MINIBLOCK_VERSION = 1;
export const MINIBLOCKS_PER_BLOCK = 10;
/** The final miniblock must meet this multiple of the block difficulty. */
export const FINAL_DIFFICULTY_MULTIPLIER = 9n;

export interface Miniblock {
  version: number;
  highDiff: boolean;
  final: boolean;
  pastCount: number;
  timestamp: number;
  height: bigint;
  past: [number, number];
  keyHash: Uint8Array;
  flags: number;
  nonce: [number, number, number];
}

export function encodeMiniblock(mb: Miniblock): Uint8Array {
  const out = new Uint8Array(MINIBLOCK_BYTES);
  const view = new DataView(out.buffer);
  if (mb.keyHash.length !== 16) throw new RangeError('miniblock key hash must be 16 bytes');
  out[0] = (mb.version & 0x0f) | (mb.highDiff ? 0x10 : 0) | (mb.final ? 0x20 : 0) | ((mb.pastCount & 3) << 6);
  view.setUint16(1, mb.timestamp & 0xffff);
  view.setUint8(3, Number((mb.height >> 32n) & 0xffn));
  view.setUint32(4, Number(mb.height & 0xffffffffn));
  view.setUint32(8, mb.past[0] >>> 0);
  view.setUint32(12, mb.past[1] >>> 0);
  out.set(mb.keyHash, 16);
  view.setUint32(32, mb.flags >>> 0);
  view.setUint32(36, mb.nonce[0] >>> 0);
  view.setUint32(40, mb.nonce[1] >>> 0);
  view.setUint32(44, mb.nonce[2] >>> 0);
  return out;
}

export function decodeMiniblock(bytes: Uint8Array): Miniblock {
  if (bytes.length !== MINIBLOCK_BYTES)
    throw new DecodeError(`miniblock must be ${MINIBLOCK_BYTES} bytes, got ${bytes.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = bytes[0]! & 0x0f;
  if (version !== MINIBLOCK_VERSION) throw new DecodeError(`miniblock has unsupported version ${version}`);
  const pastCount = bytes[0]! >> 6;
  if (pastCount > 1)
    throw new DecodeError(`miniblock past count ${pastCount} is more than the one tip a linear chain has`);
  return {
    version,
    highDiff: (bytes[0]! & 0x10) !== 0,
    final: (bytes[0]! & 0x20) !== 0,
    pastCount,
    timestamp: view.getUint16(1),
    height: (BigInt(view.getUint8(3)) << 32n) | BigInt(view.getUint32(4)),
    past: [view.getUint32(8), view.getUint32(12)],
    keyHash: bytes.slice(16, 32),
    flags: view.getUint32(32),
    nonce: [view.getUint32(36), view.getUint32(40), view.getUint32(44)],
  };
}

/** Past[0] for a tip: its first four id bytes as a big-endian u32. */
export function pastOf(tip: Uint8Array): number {
  return new DataView(tip.buffer, tip.byteOffset, 4).getUint32(0);
}
