/** JSON-RPC error codes Umbra answers with, and the errors method handlers throw to produce them. */
import { UmbraError } from '../../protocol/errors.js';

export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
  /** Every application-level failure (docs/rpc.md § Errors), e.g. `Account Unregistered`, and every UmbraError a method lets through. */
  Application: -32098,
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
    super(RpcErrorCode.InvalidParams, message);
  }
}

/** The call was well-formed but cannot be done; the message says why (code -32098). */
export class ApplicationError extends RpcError {
  override readonly name = 'ApplicationError';
  constructor(message: string, data?: unknown) {
    super(RpcErrorCode.Application, message, data);
  }
}

/** The code a method's failure is answered with: an RpcError's own, -32098 for another UmbraError, else -32603. */
export function answeredErrorCode(error: unknown): number {
  if (error instanceof RpcError) return error.code;
  return error instanceof UmbraError ? RpcErrorCode.Application : RpcErrorCode.Internal;
}
