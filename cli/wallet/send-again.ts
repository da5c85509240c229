/**
 * The command line that sends a dropped transaction again, for `wallet history` to offer: a dropped transaction spent
 * nothing, and its entries hold what it did — a transfer's receiver, amount, asset and payload arguments
 * (`umbra wallet send …`), a contract call's contract, entry point, arguments and deposits (`umbra wallet call …`).
 */
import type { RpcArgument } from '../../protocol/rpc-arguments.js';
import { formatCoins } from '../../protocol/coin-amount.js';
import type { ContractTarget, HistoryEntry } from '../../wallet/history-entry.js';
import type { TransferHistory } from '../../wallet/transfer-history.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';

/** A word as a POSIX shell reads it back: as it is when it is plain, else in single quotes. */
const shellWord = (word: string): string =>
  /^[A-Za-z0-9_.:=@%+,/-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

/** An argument as `send --payload` and `call` read it back, its type named. */
const typedArgument = (arg: RpcArgument): string => shellWord(`${arg.name}:${arg.datatype}=${arg.value}`);

/**
 * `umbra wallet send …` or `umbra wallet call …` for an outgoing entry of asset `asset` (whose transaction's other
 * entries `history` holds); undefined for an entry that cannot be repeated so — an install (its source file is not
 * kept), a payload that only carried the fee of a token transfer, burnt coins — or that another entry of the same
 * transaction speaks for (a call's token deposit: its native entry, which paid the fee, offers the call).
 */
export function sendAgainCommand(
  entry: HistoryEntry,
  asset: string,
  history: Pick<TransferHistory, 'entries'>,
): string | undefined {
  if (entry.incoming) return undefined;
  if (entry.contract) return asset === NATIVE_ASSET ? callAgain(entry, entry.contract, history) : undefined;
  const sent = entry.amount - entry.burn;
  if (entry.burn > 0n || entry.destination === '' || (sent === 0n && entry.args.length === 0)) return undefined;
  return [
    'umbra wallet send',
    entry.destination,
    formatCoins(sent),
    ...(asset === NATIVE_ASSET ? [] : [`--asset ${asset}`]),
    ...entry.args.map((arg) => `--payload ${typedArgument(arg)}`),
  ].join(' ');
}

function callAgain(
  entry: HistoryEntry,
  contract: ContractTarget,
  history: Pick<TransferHistory, 'entries'>,
): string | undefined {
  if (contract.entrypoint === undefined) return undefined;
  const tokenDeposit =
    history.entries(contract.scid).find((known) => known.txid === entry.txid && !known.incoming)?.burn ?? 0n;
  return [
    'umbra wallet call',
    contract.scid,
    shellWord(contract.entrypoint),
    ...(contract.args ?? []).map(typedArgument),
    ...(entry.burn > 0n ? [`--deposit ${formatCoins(entry.burn)}`] : []),
    ...(tokenDeposit > 0n ? [`--asset-deposit ${contract.scid}:${formatCoins(tokenDeposit)}`] : []),
  ].join(' ');
}
