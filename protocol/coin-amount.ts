/**
 * Amounts as people write and read them, one way everywhere: coins with up to 5 decimals (`1.5`, `0.00001`, `2`) or
 * atomic units with a `u` suffix (`150000u`); one coin is 100 000 atomic units. A token's units are written the same
 * way. Anything else is refused, never guessed.
 */
import { ATOMIC_UNITS_PER_COIN as COIN } from './chain-params.js';
import { UmbraError } from '../core-native/ts/errors.js';

export const COIN_DECIMALS = COIN.toString().length - 1;
/** The native coin's symbol, after an amount in coins. */
export const COIN_SYMBOL = 'UMB';
/** How to write an amount, for help texts and errors. */
export const AMOUNT_NOTATION = `coins with up to ${COIN_DECIMALS} decimals (1.5) or atomic units with a u suffix (150000u)`;

export enum AmountErrorCode {
  /** Neither coins with up to 5 decimals nor atomic units with a `u` suffix. */
  Malformed = 'amount.malformed',
  /** More than 2^64 − 1 atomic units. */
  TooLarge = 'amount.too-large',
}

export class AmountError extends UmbraError<AmountErrorCode> {
  override readonly name = 'AmountError';
}

const MAX_U64 = (1n << 64n) - 1n;
const ATOMIC = /^([0-9]+)u$/;
const COINS = new RegExp(`^([0-9]+)(?:\\.([0-9]{1,${COIN_DECIMALS}}))?$`);

/** The atomic units `text` names; `what` (a flag, a field) opens the error. */
export function parseAmount(text: string, what: string): bigint {
  const atomic = ATOMIC.exec(text);
  const coins = atomic ? undefined : COINS.exec(text);
  if (!atomic && !coins)
    throw new AmountError(
      AmountErrorCode.Malformed,
      `${what} ${JSON.stringify(text)} is not an amount: give ${AMOUNT_NOTATION}`,
    );
  const value = atomic
    ? BigInt(atomic[1]!)
    : BigInt(coins![1]!) * COIN + BigInt((coins![2] ?? '').padEnd(COIN_DECIMALS, '0'));
  if (value > MAX_U64)
    throw new AmountError(AmountErrorCode.TooLarge, `${what} ${text} is more than the largest amount, ${MAX_U64}u`);
  return value;
}

/** `atomic` in coins with all 5 decimals, e.g. 1.50000. */
export const formatCoins = (atomic: bigint): string =>
  `${atomic / COIN}.${(atomic % COIN).toString().padStart(COIN_DECIMALS, '0')}`;

/** `atomic` in coins with the unit, e.g. 1.50000 UMB. */
export const coinsText = (atomic: bigint): string => `${formatCoins(atomic)} ${COIN_SYMBOL}`;

/**
 * `atomic` for people: coins with the unit, then the exact atomic units. A token's amount has no unit of its own (the
 * asset is named beside it).
 */
export const describeAmount = (atomic: bigint, of: 'coin' | 'token' = 'coin'): string =>
  `${of === 'coin' ? coinsText(atomic) : formatCoins(atomic)} (${atomic} atomic units)`;
