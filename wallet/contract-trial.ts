/**
 * The trial run before a contract transaction is built (docs/rpc.md § transfer): the install or call runs on the
 * daemon (NODE.GetGasEstimate) against its latest state with the transaction's arguments, deposits, signer and fee,
 * through the rules the chain executes it by, and a call that would not commit is refused before anything is sent — a
 * failed call is mined and its fee (and, for an anonymous sender, its deposits) is lost. The trial is not a promise:
 * the mined call runs in a block whose id it cannot know, after other transactions, so a contract that reads them or
 * state others change may still fail (or succeed where the trial failed).
 */
import { contractAction } from '../protocol/contract-call-rules.js';
import { sumDeposits } from '../protocol/contract-deposits.js';
import { UmbraError } from '../core-native/ts/errors.js';
import type { RpcArgument } from '../protocol/rpc-arguments.js';
import { TransactionErrorCode } from '../protocol/transaction-errors.js';
import { DaemonClientErrorCode, DaemonRpcError, type DaemonClient, type GasEstimate } from './daemon-client.js';
import { daemonRefusal, WalletError, WalletErrorCode } from './wallet-error.js';

/** A contract transaction the trial says would fail; `failure` is the contract's error as the daemon gave it. */
export class ContractWouldFailError extends WalletError {
  constructor(
    readonly failure: string,
    readonly install: boolean,
    howToForce = 'set "force": true',
  ) {
    super(WalletErrorCode.ContractCallWouldFail, contractWouldFailMessage(failure, install, howToForce));
  }
}

/** The refusal's text; `howToForce` tells how the caller overrides the trial (RPC: `set "force": true`). */
export function contractWouldFailMessage(failure: string, install: boolean, howToForce: string): string {
  return `the contract ${install ? 'install' : 'call'} would fail: ${failure}; nothing was sent (${howToForce} to send it anyway)`;
}

export interface ContractTrial {
  /** The transaction's contract arguments (SC_ACTION 1 with SC_CODE, or 0 with SC_ID and entrypoint). */
  scRpc: RpcArgument[];
  /** Its items: their burns are the deposits. */
  transfers: readonly { scid: string; burn: bigint }[];
  /** The address the contract will see as its signer; absent when the ring hides it (larger than 2). */
  signer?: string;
  /** The fee the transaction will pay: the call's storage-gas limit. */
  fee: bigint;
}

/**
 * Throws ContractWouldFailError when the install or call would not commit on the daemon's latest state, and a
 * WalletError naming the trial when the daemon refuses to run it (no contract VM, no such contract …); an unreachable
 * daemon is a DaemonUnavailableError as for any call. Arguments without a readable action are not tried: the
 * daemon's pool refuses such a transaction with its reason. Resolves to the trial's gas (undefined when not tried).
 */
export async function tryContract(
  daemon: Pick<DaemonClient, 'getGasEstimate'>,
  trial: ContractTrial,
): Promise<GasEstimate | undefined> {
  let install: boolean;
  try {
    install = contractAction(trial.scRpc).install;
  } catch (error) {
    if (UmbraError.is(error, TransactionErrorCode.BadContractArguments)) return undefined;
    throw error;
  }
  const deposits = sumDeposits(trial.transfers.filter(({ burn }) => burn > 0n).map(({ scid, burn }) => [scid, burn]));
  try {
    return await daemon.getGasEstimate({
      scRpc: trial.scRpc,
      deposits: [...deposits].map(([scid, burn]) => ({ scid, burn })),
      signer: trial.signer,
      fee: trial.fee,
    });
  } catch (error) {
    if (!(error instanceof DaemonRpcError)) throw error;
    if (error.code === DaemonClientErrorCode.ContractCallWouldFail)
      throw new ContractWouldFailError(String(error.data['failure'] ?? error.message), install);
    throw daemonRefusal(WalletErrorCode.DaemonRefused, `the daemon refused the trial run: ${error.message}`, error);
  }
}
