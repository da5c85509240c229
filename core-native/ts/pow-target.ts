/**
 * The proof-of-work target rule (docs/protocol.md § Miniblocks and proof of work): a hash, read as a little-endian 256-bit integer, must be
 * at most ⌊2^256 / D⌋ for difficulty D.
 */
import { bigintFromBytesLE } from './bigint-bytes.js';

const TWO_256 = 1n << 256n;

export function meetsTarget(hash: Uint8Array, difficulty: bigint): boolean {
  if (hash.length !== 32) throw new Error(`a proof-of-work hash is 32 bytes, got ${hash.length}`);
  if (difficulty <= 0n) throw new Error(`difficulty must be positive, got ${difficulty}`);
  return bigintFromBytesLE(hash) <= TWO_256 / difficulty;
}
