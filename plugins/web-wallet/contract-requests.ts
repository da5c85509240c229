/**
 * The contracts screen's work: a contract's entry points and typed parameters read from its code (NODE.GetSC, then
 * the contract compiler the process hands in), a call's trial run with its gas and fee before paying, and the
 * transaction requests of a call and of an install (ring 2, so that the contract knows its signer).
 */
import type { CompiledContract } from '../../host/services/contract-vm.js';
import { coinsText, parseAmount } from '../../protocol/coin-amount.js';
import type { RpcArgument } from '../../protocol/rpc-arguments.js';
import { callArgs, depositItems, installArgs } from '../../wallet/contract-args.js';
import { ContractWouldFailError } from '../../wallet/contract-trial.js';
import { requestFee } from '../../wallet/fees.js';
import type { TransferRequest } from '../../wallet/transfer-sender.js';
import { DEFAULT_CONTRACT_RING } from '../../wallet/wallet-constants.js';
import type { WalletService } from '../../wallet/wallet-service.js';
import type { ContractCallRequest, ContractInfo, Trial } from './api-types.js';
import { WebWalletError, WebWalletErrorCode, isScid } from './web-wallet-error.js';

/** A Uint64 parameter of this name takes the coin deposit, not an argument. */
const DEPOSIT_PARAMETER = 'value';

/** The entry points of the contract `scid`, each with its parameters. */
export async function contractInfo(
  wallet: WalletService,
  compile: ((code: string) => CompiledContract) | undefined,
  scid: string,
): Promise<ContractInfo> {
  if (!isScid(scid)) throw new WebWalletError(WebWalletErrorCode.BadRequest, 'a SCID is 64 lowercase hex digits');
  if (!compile) throw new WebWalletError(WebWalletErrorCode.UnreadableContract, 'this wallet cannot read contracts');
  const { code } = await wallet.sendDaemon.call<{ code: string }>('NODE.GetSC', { scid, code: true });
  let contract: CompiledContract;
  try {
    contract = compile(code);
  } catch (error) {
    throw new WebWalletError(
      WebWalletErrorCode.UnreadableContract,
      `its code does not compile: ${(error as Error).message}`,
    );
  }
  const entryPoints = [...contract.functions.values()]
    .filter((fn) => fn.exported)
    .map((fn) => ({
      name: fn.name,
      params: fn.params
        .filter(({ name, type }) => !(name === DEPOSIT_PARAMETER && type === 'Uint64'))
        .map(({ name, type }) => ({ name, type })),
    }));
  return { scid, entryPoints };
}

/** A typed parameter's argument: a Uint64 must be a whole number. */
function argument(name: string, type: string, value: string): RpcArgument {
  if (type === 'String') return { name, datatype: 'S', value };
  if (!/^[0-9]+$/.test(value.trim()))
    throw new WebWalletError(WebWalletErrorCode.BadRequest, `${name} is a Uint64: give a whole number`);
  return { name, datatype: 'U', value: BigInt(value.trim()) };
}

/** The call `form` asks for, its arguments typed by the contract's parameters. */
export async function callRequest(
  wallet: WalletService,
  compile: ((code: string) => CompiledContract) | undefined,
  form: ContractCallRequest,
): Promise<TransferRequest> {
  const info = await contractInfo(wallet, compile, form.scid);
  const entry = info.entryPoints.find((fn) => fn.name === form.entrypoint);
  if (!entry)
    throw new WebWalletError(WebWalletErrorCode.BadRequest, `the contract has no entry point ${form.entrypoint}`);
  const args = entry.params.map(({ name, type }) => argument(name, type, form.args[name] ?? ''));
  const deposit = form.deposit.trim() === '' ? 0n : parseAmount(form.deposit.trim(), 'deposit');
  return {
    transfers: depositItems(form.scid, deposit, 0n),
    scRpc: callArgs(form.scid, [{ name: 'entrypoint', datatype: 'S', value: form.entrypoint }, ...args]),
    ringSize: DEFAULT_CONTRACT_RING,
  };
}

export const installRequest = (code: string): TransferRequest => {
  if (code.trim() === '') throw new WebWalletError(WebWalletErrorCode.BadRequest, 'the contract file is empty');
  return { transfers: [], scRpc: installArgs(code), ringSize: DEFAULT_CONTRACT_RING };
};

/** The trial run of a contract request on the daemon's latest state: would it commit, why not, its gas and fee. */
export async function trial(wallet: WalletService, request: TransferRequest): Promise<Trial> {
  const feeText = coinsText(requestFee(request));
  try {
    const gas = await wallet.transfers.tryContract(request);
    const gasText = gas ? `${gas.gascompute} compute, ${gas.gasstorage} storage` : undefined;
    return { ok: true, message: 'the trial run commits', feeText, ...(gasText ? { gas: gasText } : {}) };
  } catch (error) {
    if (error instanceof ContractWouldFailError)
      return { ok: false, message: `it would fail: ${error.failure}`, feeText };
    throw error;
  }
}
