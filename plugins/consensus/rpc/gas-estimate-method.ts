/**
 * NODE.GetGasEstimate (docs/rpc.md § NODE.GetGasEstimate): a trial run of a contract install or call on the latest
 * state, nothing kept. It takes the path a block's execution takes (contract-call.ts) in the next block as far as it is
 * known (call-block.ts), so it refuses what the pool refuses and reports a call that would not commit in the words
 * the mined call's outcome would record. The wallet runs every install and call through it before paying.
 */
import { randomBytes } from 'node:crypto';
import { outcomeFailure } from '../../../protocol/contract-outcome.js';
import { sumDeposits } from '../../../protocol/contract-deposits.js';
import { encodeRpcArguments, type RpcArgument } from '../../../protocol/rpc-arguments.js';
import { TransactionError, TransactionErrorCode } from '../../../protocol/transaction-errors.js';
import { QueryError, QueryErrorCode } from '../../../protocol/query-errors.js';
import { InvalidParamsError } from '../../../host/rpc/errors.js';
import { objectParams, p } from '../../../host/rpc/params.js';
import { defineMethod, type RpcMethod } from '../../../host/rpc/registry.js';
import type { ContractVm } from '../../../host/services/contract-vm.js';
import { nextCallBlock } from '../call-block.js';
import type { Chain } from '../chain.js';
import { decideContractCall, type CallSetting, type ContractRun } from '../contract-call.js';

export interface GasEstimateDeps {
  chain: Chain;
  /** The contract VM, when the dvm plugin is loaded. */
  contractVm: ContractVm | undefined;
  /** An address of this network as its 33-byte key; throws with a message naming the problem. */
  keyOf(address: string): Uint8Array;
  /** The node's clock, ms: the next block's timestamp. */
  now(): bigint;
}

interface GasEstimateParams {
  transfers: { scid?: string; burn: bigint }[];
  sc: string | undefined;
  sc_rpc: RpcArgument[];
  signer: string | undefined;
  fee: bigint;
}

const NATIVE = '\0'.repeat(32);

const transferItem = p.object({
  destination: p.optional(p.string(), undefined),
  amount: p.optional(p.uint(), 0),
  scid: p.optional(p.hash(), undefined),
  burn: p.optional(p.uint64(), 0n),
});

export function gasEstimateMethod(deps: GasEstimateDeps): RpcMethod {
  return defineMethod({
    name: 'NODE.GetGasEstimate',
    aliases: ['getgasestimate'],
    params: objectParams(
      p.object({
        transfers: p.optional(p.array(transferItem), []),
        sc: p.optional(p.string(), undefined),
        sc_rpc: p.optional(p.rpcArguments(), []),
        signer: p.optional(p.string(), undefined),
        fee: p.optional(p.uint64(), 0n),
      }),
    ),
    handler: (params) => {
      const { chain } = deps;
      const setting: CallSetting = {
        ...nextCallBlock(chain.top, deps.now()),
        // Unknown until the transaction is built (an install's contract id is its txid).
        txid: randomBytes(32),
        signer: signerKey(deps, params.signer),
        deposits: sumDeposits(params.transfers.map((item) => [item.scid ? assetId(item.scid) : NATIVE, item.burn])),
        fee: params.fee,
      };
      const scData = encodeRpcArguments(trialArguments(params));
      const run = asRpcRefusal(() => decideContractCall(deps.contractVm, setting, scData, chain.stateAt()));
      const failure = outcomeFailure(run.outcome);
      if (failure !== undefined)
        throw new QueryError(QueryErrorCode.CallWouldFail, `the call would fail: ${failure}`, { details: { failure } });
      return { gascompute: Number(run.result.gas.compute), gasstorage: Number(run.result.gas.storage), status: 'OK' };
    },
  });
}

const assetId = (hex: string): string => Buffer.from(hex, 'hex').toString('latin1');

function signerKey(deps: GasEstimateDeps, address: string | undefined): Uint8Array | undefined {
  if (address === undefined || address === '') return undefined;
  try {
    return deps.keyOf(address);
  } catch (error) {
    throw new InvalidParamsError(`invalid params: 'signer': ${(error as Error).message}`);
  }
}

/**
 * The `sc_rpc` the transaction would carry: `sc` is an install of that source (base64 of it too, as the reference's
 * wallets send it, when it does not mention an initializer); without `sc`, `sc_rpc` as given, a call when it names
 * no SC_ACTION (as the wallet adds SC_ACTION 0 to a call).
 */
function trialArguments({ sc, sc_rpc }: GasEstimateParams): RpcArgument[] {
  if (sc === undefined) {
    const named = sc_rpc.some((a) => a.name === 'SC_ACTION');
    return named ? sc_rpc : [{ name: 'SC_ACTION', datatype: 'U', value: 0n }, ...sc_rpc];
  }
  const code =
    !/initialize/i.test(sc) && /^[A-Za-z0-9+/=\s]+$/.test(sc) ? Buffer.from(sc, 'base64').toString('utf8') : sc;
  return [
    { name: 'SC_ACTION', datatype: 'U', value: 1n },
    { name: 'SC_CODE', datatype: 'S', value: code },
    ...sc_rpc.filter((a) => a.name !== 'SC_ACTION' && a.name !== 'SC_CODE'),
  ];
}

/**
 * Runs the trial; arguments the pool would refuse as malformed are invalid params, every other refusal (the
 * pool's reason: no such contract or function, does not compile …) passes as it is, an application error.
 */
function asRpcRefusal(trial: () => ContractRun): ContractRun {
  try {
    return trial();
  } catch (error) {
    if (!(error instanceof TransactionError) || error.code !== TransactionErrorCode.BadContractArguments) throw error;
    throw new InvalidParamsError(
      `invalid params: ${error.message} (give 'sc_rpc' with SC_ID and entrypoint to estimate a call, or 'sc' to estimate an install)`,
    );
  }
}
