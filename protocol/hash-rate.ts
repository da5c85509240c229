/**
 * The network's hash rate, estimated from the difficulty: a block takes nine ordinary miniblocks at the block
 * difficulty and a final one at 9× it, so 18 × difficulty hashes on average, once per block time.
 */
import { FINAL_DIFFICULTY_MULTIPLIER, MINIBLOCKS_PER_BLOCK } from './miniblock.js';

/** Expected hashes of a block, in block difficulties. */
export const HASHES_PER_DIFFICULTY = BigInt(MINIBLOCKS_PER_BLOCK - 1) + FINAL_DIFFICULTY_MULTIPLIER;
const UNITS = ['H/s', 'kH/s', 'MH/s', 'GH/s', 'TH/s', 'PH/s'];

/** Hashes per second for a block difficulty and a block time in seconds (0 without a block time). */
export function networkHashRate(difficulty: bigint, blockTimeSeconds: number): number {
  return blockTimeSeconds > 0 ? Number(difficulty * HASHES_PER_DIFFICULTY) / blockTimeSeconds : 0;
}

/** A hash rate in the largest unit that keeps the figure at 1 or more: `12.3 MH/s`. */
export function hashRateText(hashesPerSecond: number): string {
  let value = hashesPerSecond;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${UNITS[unit]}`;
}
