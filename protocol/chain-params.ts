/**
 * Consensus constants (docs/protocol.md § Networks, § Blocks), and the ones that differ per network.
 */
import type { NetworkName } from './network.js';

/** Target time between blocks, ms. */
export const TARGET_BLOCK_TIME_MS = 18_000n;
/** Blocks at or below height − STABLE_DEPTH are final: no reorganisation reaches them. */
export const STABLE_DEPTH = 8n;
/** A transaction is valid for this many blocks after its reference block. */
export const TX_VALIDITY_BLOCKS = 11n;
/** Base block reward, atomic units (halving every 7 000 000 blocks). */
export const BASE_BLOCK_REWARD = 61_500n;
export const HALVING_INTERVAL = 7_000_000n;
/** A block may be at most this far ahead of the local clock, ms. */
export const MAX_FUTURE_DRIFT_MS = 50n;
/** Atomic units per coin. */
export const ATOMIC_UNITS_PER_COIN = 100_000n;

export interface ChainParams {
  /** Difficulty of the first blocks, before the adjustment has history. */
  bootstrapDifficulty: bigint;
  minimumDifficulty: bigint;
  /** Whether miniblocks' proof of work is checked (the simulator does not, so blocks come instantly). */
  checkPow: boolean;
  /** Difficulty is fixed at this value when set (the simulator: 1). */
  fixedDifficulty: bigint | null;
  /** Amount the genesis block credits to the premine key, atomic units. */
  premineAmount: bigint;
  /** Leading zero bits a registration's txid needs (anti-spam proof of work; 0 on the simulator). */
  registrationPowBits: number;
}

export const CHAIN_PARAMS: Readonly<Record<NetworkName, ChainParams>> = {
  mainnet: {
    bootstrapDifficulty: 10_000_000n,
    minimumDifficulty: 100_000n,
    checkPow: true,
    fixedDifficulty: null,
    premineAmount: 0n,
    registrationPowBits: 24,
  },
  // Testnet difficulty starts low so that a CPU (and the test suite) mines blocks in seconds.
  testnet: {
    bootstrapDifficulty: 50n,
    minimumDifficulty: 50n,
    checkPow: true,
    fixedDifficulty: null,
    premineAmount: 2_000_000_000_000n,
    registrationPowBits: 16,
  },
  simulator: {
    bootstrapDifficulty: 1n,
    minimumDifficulty: 1n,
    checkPow: false,
    fixedDifficulty: 1n,
    premineAmount: 2_000_000_000_000n,
    registrationPowBits: 0,
  },
};

/** Block reward at a height: 61 500 halving every 7 000 000 blocks (docs/protocol.md § Miniblocks and proof of work). */
export function blockReward(height: bigint): bigint {
  return (BASE_BLOCK_REWARD * 2n) >> ((height + HALVING_INTERVAL) / HALVING_INTERVAL);
}
