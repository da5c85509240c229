/**
 * The command line that sends a dropped transaction's payload again (`umbra wallet send DESTINATION AMOUNT …`), for
 * `wallet history` to offer: a dropped transaction spent nothing, and its entry holds what it sent — the receiver, the
 * amount, the asset and the payload's arguments.
 */
import type { RpcArgument } from '../../protocol/rpc-arguments.js';
import { formatCoins } from '../../protocol/coin-amount.js';
import type { HistoryEntry } from '../../wallet/history-entry.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';

/** A word as a POSIX shell reads it back: as it is when it is plain, else in single quotes. */
const shellWord = (word: string): string =>
  /^[A-Za-z0-9_.:=@%+,/-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

const payloadFlag = (arg: RpcArgument): string => `--payload ${shellWord(`${arg.name}:${arg.datatype}=${arg.value}`)}`;

/**
 * `umbra wallet send …` for an outgoing entry that paid a receiver; undefined for one that did not — a payload that
 * only carried the fee of a token transfer or a contract transaction, or burnt coins — which `send` cannot repeat.
 */
export function sendAgainCommand(entry: HistoryEntry, asset: string): string | undefined {
  const sent = entry.amount - entry.burn;
  if (entry.incoming || entry.burn > 0n || entry.destination === '' || (sent === 0n && entry.args.length === 0))
    return undefined;
  return [
    'umbra wallet send',
    entry.destination,
    formatCoins(sent),
    ...(asset === NATIVE_ASSET ? [] : [`--asset ${asset}`]),
    ...entry.args.map(payloadFlag),
  ].join(' ');
}
