/**
 * One entry of the wallet's history of an asset, as the wallet keeps it: amounts are exact uint64s (bigint), the
 * payload is kept as its bytes (`data`) and its decoded arguments. `historyEntry` is the one builder — of what the
 * sender records and of what the block scanner finds — so every entry has the same shape and defaults. The wallet's
 * JSON-RPC answers and `umbra wallet history` give it their own form; the wallet file keeps it as it is, amounts as
 * exact JSON integers (stored-history-entry.ts reads it back).
 */
import { contractAction } from '../protocol/contract-call-rules.js';
import type { ContractCallOutcome } from '../protocol/contract-outcome.js';
import type { RpcArgument } from '../protocol/rpc-arguments.js';
import { TransactionError } from '../protocol/transaction-errors.js';

/** The contract a contract transaction installed or called. */
export interface ContractTarget {
  /** The contract's SCID: the called one, or for an install the transaction's id. */
  scid: string;
  /** The entry point called; absent for an install (which runs the contract's initializer). */
  entrypoint?: string;
  /** A call's own arguments (those after SC_ACTION, SC_ID and entrypoint); absent for an install. */
  args?: RpcArgument[];
}

export interface HistoryEntry {
  /** The block's height, topoheight and hash: 0, -1 and empty until a block holds the transaction. */
  height: number;
  topoheight: number;
  blockhash: string;
  /** The transaction's index in its block. */
  tpos: number;
  /** The payload's index in its transaction. */
  pos: number;
  /** The transaction; the block hash for a coinbase share; empty for a credit no single contract call explains. */
  txid: string;
  /** ISO 8601 with the local offset: the block's time once mined, the sending time before. */
  time: string;
  coinbase: boolean;
  incoming: boolean;
  /** The receiver (the wallet itself for incoming entries). */
  destination: string;
  /** The sender, when known (the wallet itself for outgoing entries). */
  sender: string;
  /** Atomic units the entry moved: received, or sent plus burnt. */
  amount: bigint;
  burn: bigint;
  /** The fee the payload carried. */
  fees: bigint;
  /** The payment proof (`umbproof1…`), empty when there is none. */
  proof: string;
  payloadtype: number;
  /** Base64 of the sender's ring index and the payload's padded argument bytes; empty when there is no payload. */
  data: string;
  /** The payload's arguments. */
  args: RpcArgument[];
  /** The token's SCID (absent on native-coin entries). */
  scid?: string;
  /** What a contract transaction did when mined (outgoing contract calls and installs, once in a block). */
  sc_outcome?: ContractCallOutcome;
  /**
   * The contract the transaction installed or called: on the outgoing entries of a contract transaction, whose
   * `destination` is a ring member that only carried the fee or a deposit, and on a credit the contract paid.
   */
  contract?: ContractTarget;
  /**
   * True on an outgoing entry whose transaction is in neither the daemon's pool nor its chain (a reorganisation took
   * it out of the chain, or the pool let it go): it spent nothing; absent otherwise.
   */
  dropped?: true;
}

/** Where an entry is on chain: the block's fields, or `unmined` for a transaction not yet in a block. */
export type EntryPlace = Pick<HistoryEntry, 'height' | 'topoheight' | 'blockhash' | 'tpos' | 'time'>;

/** The place of a transaction sent at `ms` and not in a block yet. */
export const unmined = (ms: number): EntryPlace => ({
  height: 0,
  topoheight: -1,
  blockhash: '',
  tpos: 0,
  time: isoTime(ms),
});

/** A decrypted payload: the sender's ring index, the padded argument bytes and the arguments they decode to. */
export interface EntryPayload {
  senderIndex: number;
  bytes: Uint8Array;
  args: RpcArgument[];
}

/** What an entry is made of; absent amounts are 0, an absent proof or payload empty. */
export interface EntryFacts {
  place: EntryPlace;
  txid: string;
  pos?: number;
  kind: 'incoming' | 'outgoing' | 'coinbase';
  destination: string;
  sender: string;
  amount: bigint;
  burn?: bigint;
  fees?: bigint;
  proof?: string;
  payloadtype?: number;
  payload?: EntryPayload;
  sc_outcome?: ContractCallOutcome;
  contract?: ContractTarget;
}

export function historyEntry(facts: EntryFacts): HistoryEntry {
  const { place, payload } = facts;
  return {
    height: place.height,
    topoheight: place.topoheight,
    blockhash: place.blockhash,
    tpos: place.tpos,
    pos: facts.pos ?? 0,
    txid: facts.txid,
    time: place.time,
    coinbase: facts.kind === 'coinbase',
    incoming: facts.kind !== 'outgoing',
    destination: facts.destination,
    sender: facts.sender,
    amount: facts.amount,
    burn: facts.burn ?? 0n,
    fees: facts.fees ?? 0n,
    proof: facts.proof ?? '',
    payloadtype: facts.payloadtype ?? 0,
    data: payload ? Buffer.concat([Buffer.from([payload.senderIndex]), payload.bytes]).toString('base64') : '',
    args: payload?.args ?? [],
    ...(facts.sc_outcome && { sc_outcome: facts.sc_outcome }),
    ...(facts.contract && { contract: facts.contract }),
  };
}

const RESERVED_ARGUMENTS = new Set(['SC_ACTION', 'SC_ID', 'SC_CODE', 'entrypoint']);

/** What a transaction with these contract arguments (`sc_rpc`) installs or calls; undefined when they name neither. */
export function contractTarget(txid: string, scRpc: readonly RpcArgument[]): ContractTarget | undefined {
  let action: ReturnType<typeof contractAction>;
  try {
    action = contractAction(scRpc);
  } catch (error) {
    // Arguments without a readable action: the chain refuses such a transaction.
    if (error instanceof TransactionError) return undefined;
    throw error;
  }
  if (action.install) return { scid: txid };
  return {
    scid: action.scid,
    entrypoint: action.entrypoint,
    args: scRpc.filter((arg) => !RESERVED_ARGUMENTS.has(arg.name)),
  };
}

/** The `D` (destination port) or `S` (source port) argument's value, else 0. */
export function argumentPort(args: readonly RpcArgument[], name: 'D' | 'S'): bigint {
  const arg = args.find((a): a is RpcArgument & { datatype: 'U' } => a.name === name && a.datatype === 'U');
  return arg?.value ?? 0n;
}

/** ISO 8601 with milliseconds and the local UTC offset, e.g. 2026-01-02T03:04:05.678+01:00. */
export function isoTime(ms: number): string {
  const date = new Date(ms);
  const offset = -date.getTimezoneOffset();
  const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 23);
  return `${local}${offset >= 0 ? '+' : '-'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}
