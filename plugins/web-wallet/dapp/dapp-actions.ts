/**
 * What each of a web app's requests would do, read and checked before the user is asked (docs/dapps.md § Methods):
 * its one-line summary and details, for a contract call the trial run's outcome and gas, and the deed itself, run
 * only once the user approves. A request the wallet could never carry out (an unknown destination, a ring the chain
 * cannot fill) is refused here, without asking.
 */
import type { Core } from '../../../core-native/ts/core.js';
import { UmbraError } from '../../../core-native/ts/errors.js';
import { coinsText, formatCoins } from '../../../protocol/coin-amount.js';
import { callArgs, depositItems } from '../../../wallet/contract-args.js';
import { ContractWouldFailError, tryContract } from '../../../wallet/contract-trial.js';
import type { GasEstimate } from '../../../wallet/daemon-client.js';
import { requestFee } from '../../../wallet/fees.js';
import type { RingChoice } from '../../../wallet/ring.js';
import type { TransferRequest } from '../../../wallet/transfer-sender.js';
import { DEFAULT_CONTRACT_RING, DEFAULT_RING, NATIVE_ASSET } from '../../../wallet/wallet-constants.js';
import type { WalletService } from '../../../wallet/wallet-service.js';
import type { DappRequest, DappRequestKind } from './approvals.js';
import { DappError, DappErrorCode } from './dapp-error.js';
import { signMessage } from './message-signature.js';
import {
  argumentList,
  atomicAmount,
  nestedParams,
  paramsOf,
  requiredText,
  ringParam,
  scidParam,
  type Params,
} from './request-params.js';

/** A request as the user will see it, and what approving it does (its result answers the app). */
export interface PlannedRequest extends Pick<DappRequest, 'kind' | 'summary' | 'details' | 'trial'> {
  carryOut(): Promise<unknown>;
}

/** The methods that act for the wallet once approved, and the kind of request each makes. */
export const ACTION_METHODS: Readonly<Record<string, Exclude<DappRequestKind, 'connect'>>> = {
  getAddress: 'address',
  signMessage: 'sign',
  transfer: 'transfer',
  callContract: 'call',
};

const MAX_MESSAGE_CHARS = 4096;
const MAX_DESTINATION_CHARS = 256;
const MAX_ENTRYPOINT_CHARS = 256;
/** How much of a message the one-line summary quotes. */
const SUMMARY_QUOTE_CHARS = 60;

const amountText = (amount: bigint, asset: string): string =>
  asset === NATIVE_ASSET ? coinsText(amount) : `${formatCoins(amount)} of token ${asset}`;

const ringText = (ring: RingChoice): string =>
  `ring ${ring.size}${ring.lowered ? `, lowered from ${ring.lowered.from}: the chain is young` : ''}`;

export class DappActions {
  constructor(
    private readonly wallet: WalletService,
    private readonly core: Core,
  ) {}

  /** Reads `method`'s params into the request to ask about; throws a DappError for a request that cannot be. */
  async plan(method: string, params: unknown): Promise<PlannedRequest> {
    const named = paramsOf(params);
    try {
      switch (ACTION_METHODS[method]) {
        case 'address':
          return this.address();
        case 'sign':
          return this.sign(named);
        case 'transfer':
          return await this.transfer(named);
        case 'call':
          return await this.call(named);
        default:
          throw new DappError(DappErrorCode.MethodNotFound, `no method ${JSON.stringify(method)}`);
      }
    } catch (error) {
      throw asDappError(error);
    }
  }

  private address(): PlannedRequest {
    const { address } = this.wallet;
    return {
      kind: 'address',
      summary: `tell the app your address ${address}`,
      details: { address },
      carryOut: async () => ({ address }),
    };
  }

  private sign(params: Params): PlannedRequest {
    const message = requiredText(params, 'message', MAX_MESSAGE_CHARS);
    const quoted =
      message.length > SUMMARY_QUOTE_CHARS
        ? `${JSON.stringify(message.slice(0, SUMMARY_QUOTE_CHARS))}…`
        : JSON.stringify(message);
    return {
      kind: 'sign',
      summary: `sign the message ${quoted} as ${this.wallet.address}`,
      details: { message, characters: String(message.length) },
      carryOut: async () => signMessage(this.core, this.wallet.keys, message),
    };
  }

  private async transfer(params: Params): Promise<PlannedRequest> {
    const destination = requiredText(params, 'destination', MAX_DESTINATION_CHARS);
    const amount = atomicAmount(params, 'amount');
    if (amount === 0n) throw new DappError(DappErrorCode.InvalidParams, "'amount' must be more than 0");
    const asset = scidParam(params, 'asset', NATIVE_ASSET);
    const payload = argumentList(params, 'payload');
    const ring = await this.wallet.transfers.chooseRing(ringParam(params), DEFAULT_RING);
    const { address } = await this.wallet.resolve(destination);
    const request: TransferRequest = {
      transfers: [{ destination, amount, scid: asset, burn: 0n, payloadRpc: payload }],
      ringSize: ring.size,
    };
    const fee = requestFee(request);
    return {
      kind: 'transfer',
      summary: `send ${amountText(amount, asset)} to ${address} (${ringText(ring)}, fee ${coinsText(fee)})`,
      details: {
        destination,
        address,
        amount: String(amount),
        asset,
        ring: String(ring.size),
        fee: String(fee),
        ...(payload.length > 0 ? { payload: payload.map((arg) => `${arg.name}=${arg.value}`).join(', ') } : {}),
      },
      carryOut: () => this.send(request),
    };
  }

  private async call(params: Params): Promise<PlannedRequest> {
    const scid = scidParam(params, 'scid');
    const entrypoint = requiredText(params, 'entrypoint', MAX_ENTRYPOINT_CHARS);
    const args = argumentList(params, 'args');
    const deposits = nestedParams(params, 'deposits');
    const coin = atomicAmount(deposits, 'coin', 0n);
    const token = atomicAmount(deposits, 'token', 0n);
    const ring = await this.wallet.transfers.chooseRing(ringParam(params), DEFAULT_CONTRACT_RING);
    const request: TransferRequest = {
      transfers: depositItems(scid, coin, token),
      scRpc: callArgs(scid, [{ name: 'entrypoint', datatype: 'S', value: entrypoint }, ...args]),
      ringSize: ring.size,
    };
    const fee = requestFee(request);
    const deposited = [
      ...(coin > 0n ? [coinsText(coin)] : []),
      ...(token > 0n ? [`${formatCoins(token)} of its token`] : []),
    ];
    return {
      kind: 'call',
      summary: `call ${entrypoint} of contract ${scid}${deposited.length > 0 ? `, depositing ${deposited.join(' and ')}` : ''} (${ringText(ring)}, fee ${coinsText(fee)})`,
      details: {
        scid,
        entrypoint,
        ...Object.fromEntries(args.map((arg) => [`argument ${arg.name} (${arg.datatype})`, String(arg.value)])),
        'coin deposit': String(coin),
        'token deposit': String(token),
        ring: String(ring.size),
        fee: String(fee),
      },
      trial: await this.trial(request),
      // Sent unforced: the wallet runs the trial again on the state of the moment, and refuses a call that would fail.
      carryOut: () => this.send(request),
    };
  }

  /** The wallet's trial run of a call (wallet/contract-trial.ts), with the gas the daemon measured. */
  private async trial(request: TransferRequest): Promise<NonNullable<DappRequest['trial']>> {
    let estimate: GasEstimate | undefined;
    const measuring = {
      getGasEstimate: async (...args: Parameters<WalletService['sendDaemon']['getGasEstimate']>) => {
        estimate = await this.wallet.sendDaemon.getGasEstimate(...args);
        return estimate;
      },
    };
    try {
      await tryContract(measuring, {
        scRpc: request.scRpc ?? [],
        transfers: request.transfers,
        // Only a ring of 2 reveals the sender to the contract.
        signer: request.ringSize === 2 ? this.wallet.address : undefined,
        fee: requestFee(request),
      });
    } catch (error) {
      if (error instanceof ContractWouldFailError) return { ok: false, message: `would fail: ${error.failure}` };
      throw error;
    }
    return {
      ok: true,
      message: 'would succeed on the latest state',
      ...(estimate ? { gas: `${estimate.gascompute} compute, ${estimate.gasstorage} storage` } : {}),
    };
  }

  private async send(request: TransferRequest): Promise<{ txid: string; ring: number }> {
    const txid = await this.wallet.transfers.send(request);
    return { txid, ring: request.ringSize };
  }
}

/** A refusal the app can read: a DappError as it is, a wallet's error with its code kept, anything else as a failure. */
export function asDappError(error: unknown): DappError {
  if (error instanceof DappError) return error;
  if (error instanceof UmbraError) return new DappError(DappErrorCode.Failed, error.message, error.code);
  return new DappError(
    DappErrorCode.Failed,
    `the wallet failed: ${error instanceof Error ? error.message : String(error)}`,
  );
}
