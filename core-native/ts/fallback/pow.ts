import type { PowCore } from '../pow.js';
import { astroBwtV3 } from '../pow/astrobwtv3.js';

/** Proof of work in TypeScript. */
export function fallbackPow(): PowCore {
  return { powHash: (input) => astroBwtV3(input) };
}
