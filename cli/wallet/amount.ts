/**
 * Amounts as people type and read them: coins with up to 5 decimals (`1.5`, `0.00001`, `2`) or atomic units with a
 * `u` suffix (`150000u`); one coin is 100 000 atomic units. Anything else is refused, never guessed.
 */
import { ATOMIC_UNITS_PER_COIN as COIN } from '../../protocol/chain-params.js';
import { COIN_DECIMALS as DECIMALS } from '../../protocol/coin-amount.js';
import { CliError, CliErrorCode } from '../cli-error.js';

const MAX_U64 = (1n << 64n) - 1n;
const ATOMIC = /^([0-9]+)u$/;
const COINS = new RegExp(`^([0-9]+)(?:\\.([0-9]{1,${DECIMALS}}))?$`);

/** The atomic units `text` names; `what` says which argument it is in the error. */
export function parseAmount(text: string, what = 'amount'): bigint {
  const atomic = ATOMIC.exec(text);
  const coins = atomic ? undefined : COINS.exec(text);
  if (!atomic && !coins)
    throw new CliError(
      CliErrorCode.BadAmount,
      `${what} ${JSON.stringify(text)} is not an amount: give coins with up to ${DECIMALS} decimals (1.5) or atomic units with a u suffix (150000u)`,
    );
  const value = atomic
    ? BigInt(atomic[1]!)
    : BigInt(coins![1]!) * COIN + BigInt((coins![2] ?? '').padEnd(DECIMALS, '0'));
  if (value > MAX_U64)
    throw new CliError(
      CliErrorCode.BadAmount,
      `${what} ${text} is more than the largest amount, ${MAX_U64} atomic units`,
    );
  return value;
}
