/**
 * Reads a web app's request parameters (docs/dapps.md § Methods): by name, each checked, and any mistake answered as
 * invalid parameters naming the field. Amounts are atomic units, as a decimal string or a safe JSON integer.
 */
import { parseRpcArguments, RpcArgumentError, type RpcArgument } from '../../../protocol/rpc-arguments.js';
import { DappError, DappErrorCode } from './dapp-error.js';
import { isScid } from '../web-wallet-error.js';

export type Params = Record<string, unknown>;

const MAX_U64 = (1n << 64n) - 1n;

const invalid = (message: string): DappError => new DappError(DappErrorCode.InvalidParams, message);

/** The request's `params`: an object, or nothing (an empty one). */
export function paramsOf(params: unknown): Params {
  if (params === undefined) return {};
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw invalid('params must be an object of named parameters');
  return params as Params;
}

export function requiredText(params: Params, key: string, maxLength: number): string {
  const value = params[key];
  if (typeof value !== 'string' || value.length === 0) throw invalid(`'${key}' must be a non-empty string`);
  if (value.length > maxLength) throw invalid(`'${key}' is longer than ${maxLength} characters`);
  return value;
}

export function optionalText(params: Params, key: string, maxLength: number): string | undefined {
  return params[key] === undefined ? undefined : requiredText(params, key, maxLength);
}

/** An amount in atomic units; `fallback` when absent (none: the field is required). */
export function atomicAmount(params: Params, key: string, fallback?: bigint): bigint {
  const value = params[key];
  if (value === undefined && fallback !== undefined) return fallback;
  let amount: bigint | undefined;
  if (typeof value === 'string' && /^[0-9]{1,20}$/.test(value)) amount = BigInt(value);
  else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) amount = BigInt(value);
  if (amount === undefined || amount > MAX_U64)
    throw invalid(`'${key}' must be atomic units: a decimal string or a non-negative safe integer`);
  return amount;
}

/** A 64-hex asset or contract id; `fallback` when absent (none: the field is required). */
export function scidParam(params: Params, key: string, fallback?: string): string {
  const value = params[key];
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'string' || !isScid(value.toLowerCase())) throw invalid(`'${key}' must be 64 hex digits`);
  return value.toLowerCase();
}

/** The ring size asked for, when one is; the wallet checks that the chain can fill it. */
export function ringParam(params: Params): number | undefined {
  const ring = params['ring'];
  if (ring === undefined) return undefined;
  if (typeof ring !== 'number' || !Number.isInteger(ring) || ring < 2 || ring > 128 || (ring & (ring - 1)) !== 0)
    throw invalid("'ring' must be a power of two from 2 to 128");
  return ring;
}

/** A `{name, datatype, value}` list, as the wallet RPC's `sc_rpc`; empty when absent. */
export function argumentList(params: Params, key: string): RpcArgument[] {
  if (params[key] === undefined) return [];
  try {
    return parseRpcArguments(params[key], key);
  } catch (error) {
    if (error instanceof RpcArgumentError) throw invalid(error.message);
    throw error;
  }
}

/** An object parameter's fields; empty when absent. */
export function nestedParams(params: Params, key: string): Params {
  const value = params[key];
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`'${key}' must be an object`);
  return value as Params;
}
