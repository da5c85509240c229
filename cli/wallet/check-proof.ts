/**
 * `wallet check-proof TXID PROOF`: checks a payment proof without a wallet file. Only the transaction (and the
 * network) is read from a daemon; the check runs here (protocol/payment-proof-check.ts), and the transaction must hash
 * to TXID, so a daemon cannot make a proof fit. A proof that does not fit is a failure saying why (exit status 1).
 */
import type { CoreImpl } from '../../core-native/ts/core.js';
import { loadCore } from '../../core-native/ts/index.js';
import { fromHex } from '../../protocol/bytes.js';
import { describeAmount } from '../../protocol/coin-amount.js';
import { isNetworkName, NETWORKS, type NetworkName } from '../../protocol/network.js';
import { checkPaymentProof } from '../../protocol/payment-proof-check.js';
import { rpcArgumentToExactJson } from '../../protocol/rpc-arguments.js';
import { decodeTransaction } from '../../protocol/transaction.js';
import { DaemonClient } from '../../wallet/daemon-client.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';
import { CliError, CliErrorCode } from '../cli-error.js';
import { reachingDaemon } from '../daemon-offline.js';
import { parseScid } from './flag-values.js';
import { labelled } from './output.js';

export interface CheckProofOptions {
  txid: string;
  proof: string;
  /** The daemon to read the transaction from (default: the local daemon of `network`). */
  daemonAddress?: string;
  /** The network asked for (default mainnet); the daemon's must be the same. */
  network?: NetworkName;
  crypto?: CoreImpl | 'auto';
}

export interface CheckProofResult {
  txid: string;
  valid: true;
  receiver: string;
  /** Atomic units of `asset`. */
  amount: bigint;
  asset: string;
  /** The payload's index in the transaction, and the receiver's in its ring (from 0). */
  payload: number;
  ring_index: number;
  ring_size: number;
  payload_rpc: ReturnType<typeof rpcArgumentToExactJson>[];
  in_pool: boolean;
  /** The main-chain block holding the transaction (absent while it waits in the pool). */
  block_height?: number;
}

/** The daemon's network and its copy of the transaction. */
async function readTransaction(daemon: DaemonClient, txid: string, wanted: NetworkName | undefined) {
  const [info, [record]] = await reachingDaemon(() =>
    Promise.all([daemon.call<{ network: string }>('NODE.GetInfo'), daemon.getTransactions([txid])]),
  );
  if (!isNetworkName(info.network) || (wanted && info.network !== wanted))
    throw new CliError(
      CliErrorCode.WrongNetwork,
      `the daemon at ${daemon.url} runs ${info.network}, not ${wanted ?? 'a network this node knows'}`,
    );
  if (!record || record.as_hex === '')
    throw new CliError(
      CliErrorCode.BadArgument,
      `no transaction ${txid} on the chain of the daemon at ${daemon.url}, nor in its pool`,
    );
  return { network: info.network, record };
}

export async function checkProof(options: CheckProofOptions): Promise<CheckProofResult> {
  const txid = parseScid(options.txid, 'TXID');
  const daemon = new DaemonClient(
    options.daemonAddress ?? `127.0.0.1:${NETWORKS[options.network ?? 'mainnet'].defaultRpcPort}`,
  );
  const { network, record } = await readTransaction(daemon, txid, options.network);
  const core = await loadCore({ impl: options.crypto });
  const tx = decodeTransaction(fromHex(record.as_hex));
  const fit = checkPaymentProof(core, network, { txid: fromHex(txid, 32), tx, proof: options.proof });
  return {
    txid,
    valid: true,
    receiver: fit.receiver,
    amount: fit.amount,
    asset: fit.asset,
    payload: fit.payload,
    ring_index: fit.ringIndex,
    ring_size: fit.ringSize,
    payload_rpc: fit.args.map(rpcArgumentToExactJson),
    in_pool: record.in_pool,
    ...(record.in_pool ? {} : { block_height: record.block_height }),
  };
}

export const checkProofText = (result: CheckProofResult): string =>
  labelled([
    ['proof', `fits transaction ${result.txid}`],
    ['receiver', result.receiver],
    ['amount', describeAmount(result.amount)],
    ...(result.asset === NATIVE_ASSET ? [] : [['asset', result.asset] as [string, string]]),
    ['ring member', `${result.ring_index + 1} of ${result.ring_size} (payload ${result.payload + 1})`],
    ...(result.payload_rpc.length === 0
      ? []
      : [
          [
            'payload',
            result.payload_rpc.map((arg) => `${arg.name}:${arg.datatype}=${String(arg.value)}`).join(', '),
          ] as [string, string],
        ]),
    ['transaction', result.in_pool ? 'waiting in the pool' : `in block ${result.block_height}`],
  ]);
