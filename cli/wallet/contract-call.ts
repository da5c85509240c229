/**
 * `wallet call SCID ENTRYPOINT [NAME=VALUE]… [--deposit AMOUNT] [--asset-deposit SCID:AMOUNT]`: calls a contract's
 * entry point, ring 2 by default so that the contract knows its signer. The entry point and arguments are checked
 * against the contract's code first (call-arguments.ts); the arguments and deposits are made by the wallet library
 * (contract-args.ts), as for the wallet RPC's scinvoke.
 */
import type { RpcArgument } from '../../protocol/rpc-arguments.js';
import { callArgs, depositItems } from '../../wallet/contract-args.js';
import { DEFAULT_CONTRACT_RING } from '../../wallet/wallet-constants.js';
import { describeAmount } from '../../protocol/coin-amount.js';
import { checkCallArguments } from './call-arguments.js';
import { labelled } from './output.js';
import type { WalletSession } from './session.js';
import { sentRows, submitTransaction, type SentTransaction, type SubmitOptions } from './transaction-submission.js';

export interface CallOptions extends SubmitOptions {
  scid: string;
  entrypoint: string;
  args?: RpcArgument[];
  /** Native coins deposited into the contract, atomic units. */
  deposit?: bigint;
  /** Units of the called contract's own token deposited into it. */
  assetDeposit?: bigint;
  /** Send even when the wallet's trial run says the call fails. */
  force?: boolean;
}

export interface CallResult extends SentTransaction {
  scid: string;
  entrypoint: string;
}

export async function call(session: WalletSession, options: CallOptions): Promise<CallResult> {
  await checkCallArguments(session.wallet.sendDaemon, options.scid, options.entrypoint, options.args ?? []);
  const preview: [string, string][] = [
    ['contract', options.scid],
    ['entry point', options.entrypoint],
    ...(options.args ?? []).map((arg): [string, string] => [
      `argument ${arg.name} (${arg.datatype})`,
      String(arg.value),
    ]),
  ];
  if (options.deposit) preview.push(['deposit', describeAmount(options.deposit)]);
  if (options.assetDeposit) preview.push(['token deposit', `${options.assetDeposit} units`]);
  const sent = await submitTransaction(
    session,
    {
      transfers: depositItems(options.scid, options.deposit ?? 0n, options.assetDeposit ?? 0n),
      scRpc: callArgs(options.scid, [
        { name: 'entrypoint', datatype: 'S', value: options.entrypoint },
        ...(options.args ?? []),
      ]),
      force: options.force,
    },
    DEFAULT_CONTRACT_RING,
    preview,
    options,
  );
  return { scid: options.scid, entrypoint: options.entrypoint, ...sent };
}

export const callText = (result: CallResult): string =>
  labelled([['called', `${result.entrypoint} of ${result.scid}`], ...sentRows(result)]);
