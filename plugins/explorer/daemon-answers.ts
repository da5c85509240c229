/**
 * What the explorer reads from the daemon's RPC answers, by method, as docs/rpc.md documents them. The answers come
 * from the consensus plugin, whose types a plugin does not import, so the explorer states the shapes it relies on.
 */
import type { BlockHeaderJson } from '../../protocol/block-header-json.js';
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';

/** One record of NODE.GetTransaction (as_hex '' when the node does not know the transaction). */
export interface TransactionRecordAnswer {
  as_hex: string;
  block_height: number;
  in_pool: boolean;
  valid_block: string;
  ring: string[][] | null;
  signer: string;
  sc_outcome?: ContractCallOutcome;
}

/** NODE.CheckPaymentProof's answer: who received how much, or why the proof does not fit. */
export type PaymentProofAnswer =
  | {
      valid: true;
      payload: number;
      asset: string;
      ring_index: number;
      ring_size: number;
      receiver: string;
      amount: bigint;
      payload_rpc: { name: string; datatype: string; value: string | bigint }[];
    }
  | { valid: false; code: string; reason: string };

export interface DaemonAnswers {
  'NODE.GetInfo': {
    network: string;
    version: string;
    stableheight: number;
    total_supply: number;
    /** 0 without the mining plugin, or before two blocks in the hour up to the top. */
    hashrate_1hr: number;
  };
  'NODE.GetBlockHeaderByHash': { block_header: BlockHeaderJson };
  'NODE.GetBlockHeaderByTopoHeight': { block_header: BlockHeaderJson };
  'NODE.GetTransaction': { txs: TransactionRecordAnswer[] };
  'NODE.GetSC': {
    code: string;
    stringkeys: Record<string, number | string>;
    balances: Record<string, number | string>;
  };
  'NODE.NameToAddress': { address: string };
  'NODE.GetEncryptedBalance': { data: string; registration: number; topoheight: number };
  'NODE.CheckPaymentProof': PaymentProofAnswer;
}
