/**
 * The wire-level errors of JSON-RPC: the codes Umbra answers with, and the errors the RPC plumbing and method
 * parameters throw to produce them. A failure of the work a method does is an UmbraError instead (its code goes in
 * the answer's `data`, see dispatcher.ts).
 */
import { NodeFault, UmbraError } from '../../core-native/ts/errors.js';

export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
  /** Every application-level failure (docs/rpc.md § Errors), e.g. `Account Unregistered`: every UmbraError a method lets through. */
  Application: -32098,
} as const;

/** The `data.code` of wire-level errors that carry one (docs/rpc.md § Error codes). */
export const RpcDataCode = {
  InvalidParams: 'rpc.invalid-params',
  /** A push method called over HTTP. */
  WebSocketOnly: 'rpc.websocket-only',
} as const;

export class RpcError extends Error {
  override readonly name: string = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A parameter was missing, of the wrong type or out of range; the message names the field. */
export class InvalidParamsError extends RpcError {
  override readonly name = 'InvalidParamsError';
  constructor(message: string) {
    super(RpcErrorCode.InvalidParams, message, { code: RpcDataCode.InvalidParams });
  }
}

/**
 * The code a method's failure is answered with: an RpcError's own, -32603 for a NodeFault (the node's own failure),
 * -32098 for another UmbraError, else -32603.
 */
export function answeredErrorCode(error: unknown): number {
  if (error instanceof RpcError) return error.code;
  return error instanceof UmbraError && !(error instanceof NodeFault)
    ? RpcErrorCode.Application
    : RpcErrorCode.Internal;
}
