/**
 * What a transaction's bytes show anyone: its type, size, fee, proof size, asset payloads (asset, burn, ring size)
 * and, for a contract transaction, its arguments and the contract it installs or calls. Amounts and senders stay
 * hidden: they are encrypted, and the explorer shows only what the chain reveals.
 */
import { toHex } from '../../protocol/bytes.js';
import { decodeRpcArguments, rpcArgumentToExactJson, type RpcArgument } from '../../protocol/rpc-arguments.js';
import { decodeTransaction, TxType, type Transaction } from '../../protocol/transaction.js';

export const TX_TYPE_NAMES: Readonly<Record<TxType, string>> = {
  [TxType.Premine]: 'premine',
  [TxType.Registration]: 'registration',
  [TxType.Coinbase]: 'coinbase',
  [TxType.Normal]: 'transfer',
  [TxType.SmartContract]: 'contract',
};

export interface PayloadSummary {
  /** The asset: 64 zeros for the native coin, else the token contract's SCID. */
  scid: string;
  burn: bigint;
  ringSize: number;
  proofBytes: number;
}

export interface ContractAction {
  kind: 'install' | 'call';
  /** The contract installed (the txid) or called (its SC_ID argument). */
  scid: string;
  /** The called function, for a call. */
  entrypoint?: string;
  args: ReturnType<typeof rpcArgumentToExactJson>[];
}

export interface TransactionSummary {
  txid: string;
  type: string;
  size: number;
  fee: bigint;
  proofBytes: number;
  payloads: PayloadSummary[];
  contract?: ContractAction;
  /** The account a registration registers (or a miner transaction pays), as an address, when asked for. */
  account?: string;
}

const uArg = (args: RpcArgument[], name: string) => args.find((a) => a.name === name && a.datatype === 'U')?.value;
const arg = (args: RpcArgument[], name: string, datatype: 'S' | 'H') =>
  args.find((a) => a.name === name && a.datatype === datatype)?.value as string | undefined;

/** The contract a contract transaction installs or calls, or undefined when its arguments say neither. */
export function contractAction(txid: string, tx: Transaction): ContractAction | undefined {
  if (tx.type !== TxType.SmartContract) return undefined;
  let args: RpcArgument[];
  try {
    args = decodeRpcArguments(tx.scData);
  } catch {
    return undefined;
  }
  // The code of an install is shown on the contract page, not repeated with the arguments.
  const shown = args.filter((a) => a.name !== 'SC_CODE').map(rpcArgumentToExactJson);
  if (uArg(args, 'SC_ACTION') === 1n) return { kind: 'install', scid: txid, args: shown };
  const scid = arg(args, 'SC_ID', 'H');
  if (scid === undefined) return undefined;
  const entrypoint = arg(args, 'entrypoint', 'S');
  return { kind: 'call', scid, ...(entrypoint !== undefined && { entrypoint }), args: shown };
}

export function summariseTransaction(
  txid: Uint8Array,
  bytes: Uint8Array,
  addressOf?: (key: Uint8Array) => string,
): TransactionSummary {
  const id = toHex(txid);
  const tx = decodeTransaction(bytes);
  const payloads =
    tx.type === TxType.Normal || tx.type === TxType.SmartContract
      ? tx.payloads.map((payload) => ({
          scid: toHex(payload.scid),
          burn: payload.burn,
          ringSize: payload.statement.ring.length,
          proofBytes: payload.proof.length,
        }))
      : [];
  const fee =
    tx.type === TxType.Normal || tx.type === TxType.SmartContract
      ? tx.payloads.reduce((sum, payload) => sum + payload.statement.fees, 0n)
      : 0n;
  const contract = contractAction(id, tx);
  const account = addressOf && 'key' in tx ? addressOf(tx.key) : undefined;
  return {
    txid: id,
    type: TX_TYPE_NAMES[tx.type],
    size: bytes.length,
    fee,
    proofBytes: payloads.reduce((sum, payload) => sum + payload.proofBytes, 0),
    payloads,
    ...(contract && { contract }),
    ...(account !== undefined && { account }),
  };
}
