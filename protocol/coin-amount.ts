/** Amounts for people to read: one coin is 100 000 atomic units, shown with all 5 decimals. */
import { ATOMIC_UNITS_PER_COIN as COIN } from './chain-params.js';

export const COIN_DECIMALS = COIN.toString().length - 1;

/** `atomic` in coins with all 5 decimals, e.g. 1.50000. */
export const formatCoins = (atomic: bigint): string =>
  `${atomic / COIN}.${(atomic % COIN).toString().padStart(COIN_DECIMALS, '0')}`;

/** `atomic` for people: coins, then the exact atomic units. */
export const describeAmount = (atomic: bigint): string => `${formatCoins(atomic)} (${atomic} atomic units)`;
