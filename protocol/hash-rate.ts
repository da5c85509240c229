/**
 * The network's hash rate, as people read it. A block takes nine ordinary miniblocks at the block difficulty and a
 * final one at 9× it, so 18 × difficulty hashes on average: the node sums that work over the main chain's blocks of a
 * window and divides by the time they span (GetInfo's hashrate_1hr). Status and explorer show that figure and say
 * which window it covers.
 */
import { FINAL_DIFFICULTY_MULTIPLIER, MINIBLOCKS_PER_BLOCK } from './miniblock.js';

/** Expected hashes of a block, in block difficulties. */
export const HASHES_PER_DIFFICULTY = BigInt(MINIBLOCKS_PER_BLOCK - 1) + FINAL_DIFFICULTY_MULTIPLIER;
const UNITS = ['H/s', 'kH/s', 'MH/s', 'GH/s', 'TH/s', 'PH/s'];

/** The window GetInfo's hashrate_1hr covers, in the words status and explorer print beside it. */
export const HASH_RATE_WINDOW = 'the hour up to the top block';

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

/** GetInfo's hashrate_1hr with its window, or why there is no figure (fewer than two blocks in the window). */
export function hashRateEstimateText(hashesPerSecond: number): string {
  return hashesPerSecond > 0
    ? `${hashRateText(hashesPerSecond)} (accepted miniblocks' difficulty over ${HASH_RATE_WINDOW})`
    : `not known yet: it needs two blocks within ${HASH_RATE_WINDOW}`;
}
