/**
 * Integer-only difficulty adjustment (docs/protocol.md § Consensus rules, "Difficulty"): the reference's per-block rule
 *   D_next = D_tip × ⌊10000 · e^((1 − solve/18000)/8)⌋ / 10000,  solve = ts(tip) − ts(parent) capped at 36 s,
 * with the exponential evaluated as a fixed-point Taylor series instead of floating point, so every node computes
 * the same value on every platform.
 */
import { TARGET_BLOCK_TIME_MS, type ChainParams } from '../chain-params.js';

const SCALE = 10n ** 18n;
const MAX_SOLVE_MS = 2n * TARGET_BLOCK_TIME_MS;
/** Damping of the adjustment (the 8 in the exponent). */
const DAMPING = 8n;

/** ⌊10000 · e^x⌋ for x = numerator/denominator with |x| ≤ 1/8, exact for every input the rule can produce. */
function expFactor(numerator: bigint, denominator: bigint): bigint {
  const x = (numerator * SCALE) / denominator;
  let term = SCALE;
  let sum = SCALE;
  for (let k = 1n; k <= 20n; k++) {
    term = (term * x) / (SCALE * k);
    if (term === 0n) break;
    sum += term;
  }
  return (sum * 10_000n) / SCALE;
}

/** The adjustment factor in units of 1/10000 for a solve time in ms. */
export function adjustmentFactor(solveMs: bigint): bigint {
  const solve = solveMs < 0n ? 0n : solveMs > MAX_SOLVE_MS ? MAX_SOLVE_MS : solveMs;
  return expFactor(TARGET_BLOCK_TIME_MS - solve, TARGET_BLOCK_TIME_MS * DAMPING);
}

export interface DifficultyInput {
  /** Height of the block whose difficulty is wanted. */
  height: bigint;
  /** Difficulty and timestamp of its parent (the tip), and the parent's parent's timestamp. */
  tipDifficulty: bigint;
  tipTimestamp: bigint;
  parentTimestamp: bigint | null;
}

export function nextDifficulty(params: ChainParams, input: DifficultyInput): bigint {
  if (params.fixedDifficulty !== null) return params.fixedDifficulty;
  if (input.height < 3n || input.parentTimestamp === null) return params.bootstrapDifficulty;
  const next = (input.tipDifficulty * adjustmentFactor(input.tipTimestamp - input.parentTimestamp)) / 10_000n;
  return next < params.minimumDifficulty ? params.minimumDifficulty : next;
}
