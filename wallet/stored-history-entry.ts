/**
 * A history entry read back from the wallet file. The file keeps each entry as the wallet does (history-entry.ts),
 * its amounts written as exact JSON integers; files of earlier versions kept the JSON-RPC form instead, with amounts
 * as plain JSON numbers, `burn` only when non-zero, the arguments as `payload_rpc` and fields derived from the others
 * (`minerreward`, `status`, `ewdata`, `payload`, `dstport`, `srcport`), which are not read. Both forms read the same.
 */
import type { ContractCallOutcome } from '../protocol/contract-outcome.js';
import { parseRpcArguments, RpcArgumentError } from '../protocol/rpc-arguments.js';
import type { ContractTarget, HistoryEntry } from './history-entry.js';
import { WalletFileError, WalletFileErrorCode } from './wallet-file.js';

const MAX_U64 = (1n << 64n) - 1n;

const damaged = (problem: string): WalletFileError =>
  new WalletFileError(WalletFileErrorCode.BadHistory, `the wallet file's history is damaged: ${problem}`);

/** Reads the entry at `where` (e.g. `entries.<scid>[3]`) of the wallet file's history; a malformed one throws. */
export function storedHistoryEntry(stored: unknown, where: string): HistoryEntry {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored))
    throw damaged(`${where} is not an object`);
  const fields = stored as Record<string, unknown>;
  const field = <T>(name: string, read: (value: unknown) => T | undefined, what: string): T => {
    const value = read(fields[name]);
    if (value === undefined) throw damaged(`${where}.${name} must be ${what}`);
    return value;
  };
  const integer = (name: string): number =>
    field(name, (v) => (Number.isSafeInteger(v) ? (v as number) : undefined), 'an integer');
  const text = (name: string): string => field(name, (v) => (typeof v === 'string' ? v : undefined), 'a string');
  const flag = (name: string): boolean => field(name, (v) => (typeof v === 'boolean' ? v : undefined), 'true or false');
  const atomic = (name: string): bigint => field(name, uint64, 'an integer of atomic units (0 … 2^64 − 1)');
  const argumentList = (value: unknown, at: string): HistoryEntry['args'] => {
    try {
      return parseRpcArguments(value, at);
    } catch (error) {
      if (error instanceof RpcArgumentError) throw damaged(error.message);
      throw error;
    }
  };
  const args = argumentList(fields['args'] ?? fields['payload_rpc'] ?? [], `${where}.args`);
  return {
    height: integer('height'),
    topoheight: integer('topoheight'),
    blockhash: text('blockhash'),
    tpos: integer('tpos'),
    pos: integer('pos'),
    txid: text('txid'),
    time: text('time'),
    coinbase: flag('coinbase'),
    incoming: flag('incoming'),
    destination: text('destination'),
    sender: text('sender'),
    amount: atomic('amount'),
    burn: fields['burn'] === undefined ? 0n : atomic('burn'),
    fees: atomic('fees'),
    proof: text('proof'),
    payloadtype: integer('payloadtype'),
    data: text('data'),
    args,
    ...(typeof fields['scid'] === 'string' && { scid: fields['scid'] }),
    ...(typeof fields['sc_outcome'] === 'object' &&
      fields['sc_outcome'] !== null && { sc_outcome: fields['sc_outcome'] as ContractCallOutcome }),
    ...(fields['dropped'] === true && { dropped: true }),
    ...(fields['contract'] !== undefined && {
      contract: storedContract(fields['contract'], `${where}.contract`, argumentList),
    }),
  };
}

/** The `contract` of an entry: a SCID, and for a call its entry point and arguments. */
function storedContract(
  stored: unknown,
  where: string,
  argumentList: (value: unknown, at: string) => HistoryEntry['args'],
): ContractTarget {
  const fields = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<string, unknown>;
  const { scid, entrypoint, args } = fields;
  if (typeof scid !== 'string' || !/^[0-9a-f]{64}$/.test(scid)) throw damaged(`${where}.scid must be 64 hex digits`);
  if (entrypoint === undefined) return { scid };
  if (typeof entrypoint !== 'string') throw damaged(`${where}.entrypoint must be a string`);
  return { scid, entrypoint, args: argumentList(args ?? [], `${where}.args`) };
}

/** An amount as stored: a JSON integer (a bigint beyond 2^53, as the wallet file parses it) within uint64. */
function uint64(value: unknown): bigint | undefined {
  const amount =
    typeof value === 'bigint'
      ? value
      : typeof value === 'number' && Number.isInteger(value)
        ? BigInt(value)
        : undefined;
  return amount !== undefined && amount >= 0n && amount <= MAX_U64 ? amount : undefined;
}
