/**
 * A history entry as the wallet's JSON-RPC answers give it (docs/rpc.md § GetTransferbyTXID): GetTransfers,
 * GetTransferbyTXID and the `history` push topic. Amounts, fees and ports stay bigints, which the answers write as JSON
 * numbers with every digit (protocol/exact-json.ts), so a uint64 beyond 2^53 is exact; the fields the reference's
 * wallet answers with but this wallet does not keep (`minerreward`, `status`, `ewdata`, `payload`, `dstport`,
 * `srcport`) are derived here.
 */
import type { ContractCallOutcome } from '../../../protocol/contract-outcome.js';
import { rpcArgumentToExactJson } from '../../../protocol/rpc-arguments.js';
import { argumentPort, type HistoryEntry } from '../../../wallet/history-entry.js';

export interface TransferEntryJson {
  height: number;
  topoheight: number;
  blockhash: string;
  /** The amount of a coinbase entry, else 0. */
  minerreward: bigint;
  tpos: number;
  pos: number;
  coinbase: boolean;
  incoming: boolean;
  txid: string;
  destination: string;
  amount: bigint;
  /** Present when non-zero. */
  burn?: bigint;
  fees: bigint;
  proof: string;
  /** 0 incoming or coinbase, 1 outgoing. */
  status: 0 | 1;
  time: string;
  ewdata: '';
  data: string;
  payloadtype: number;
  /** Base64 of the payload's padded argument bytes (`data` without the sender's ring index). */
  payload: string;
  /** Present when the payload has arguments. */
  payload_rpc?: ReturnType<typeof rpcArgumentToExactJson>[];
  sender: string;
  dstport: bigint;
  srcport: bigint;
  scid?: string;
  sc_outcome?: ContractCallOutcome;
  /** Present (true) on a sent transaction the daemon holds in neither its pool nor its chain. */
  dropped?: true;
  /** The contract a contract transaction installed or called (an Umbra extension), its call's entry point and arguments. */
  contract?: { scid: string; entrypoint?: string; args?: ReturnType<typeof rpcArgumentToExactJson>[] };
}

export function transferEntryJson(entry: HistoryEntry): TransferEntryJson {
  return {
    height: entry.height,
    topoheight: entry.topoheight,
    blockhash: entry.blockhash,
    minerreward: entry.coinbase ? entry.amount : 0n,
    tpos: entry.tpos,
    pos: entry.pos,
    coinbase: entry.coinbase,
    incoming: entry.incoming,
    txid: entry.txid,
    destination: entry.destination,
    amount: entry.amount,
    ...(entry.burn > 0n && { burn: entry.burn }),
    fees: entry.fees,
    proof: entry.proof,
    status: entry.incoming ? 0 : 1,
    time: entry.time,
    ewdata: '',
    data: entry.data,
    payloadtype: entry.payloadtype,
    payload: entry.data === '' ? '' : Buffer.from(entry.data, 'base64').subarray(1).toString('base64'),
    ...(entry.args.length > 0 && { payload_rpc: entry.args.map(rpcArgumentToExactJson) }),
    sender: entry.sender,
    dstport: argumentPort(entry.args, 'D'),
    srcport: argumentPort(entry.args, 'S'),
    ...(entry.scid !== undefined && { scid: entry.scid }),
    ...(entry.sc_outcome && { sc_outcome: entry.sc_outcome }),
    ...(entry.dropped && { dropped: true }),
    ...(entry.contract && {
      contract: {
        scid: entry.contract.scid,
        ...(entry.contract.entrypoint !== undefined && {
          entrypoint: entry.contract.entrypoint,
          args: (entry.contract.args ?? []).map(rpcArgumentToExactJson),
        }),
      },
    }),
  };
}
