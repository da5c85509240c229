/**
 * The connection endpoint's refusals (docs/dapps.md § Errors): each is a JSON-RPC error code a web app can act on —
 * the user said no, nobody answered in time, the origin was never let in — with a message for people.
 */
import { UmbraError } from '../../../core-native/ts/errors.js';

export enum DappErrorCode {
  /** The user denied the request. */
  Denied = 4001,
  /** Nobody approved or denied the request before it expired. */
  TimedOut = 4002,
  /** The origin already has as many requests waiting as it may. */
  TooManyPending = 4003,
  /** The wallet cannot carry the request out, before asking or once approved (its own code is in `data`). */
  Failed = 4004,
  /** The origin has no permission: it has not connected, the user denied it, or revoked it. */
  NotPermitted = 4100,
  /** The wallet is closing; the request was dropped. */
  Closing = 4900,
  InvalidParams = -32602,
  MethodNotFound = -32601,
  InvalidRequest = -32600,
  ParseError = -32700,
}

export class DappError extends UmbraError<string> {
  override readonly name = 'DappError';

  constructor(
    readonly rpcCode: DappErrorCode,
    message: string,
    /** The wallet's error code when the wallet refused an approved request (wallet/wallet-error.ts). */
    readonly walletCode?: string,
  ) {
    super(`dapp.${DappErrorCode[rpcCode]}`, message);
  }
}
