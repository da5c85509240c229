/**
 * Declarative checks for JSON-RPC params. A method declares what it takes; the dispatcher runs the check before the
 * handler, so handlers receive typed values and a bad field becomes -32602 with a message naming it. Object keys
 * match case-insensitively (as the reference's decoder does); unknown keys are ignored, except by `strictObject`.
 */
import { isWholeBytesHex } from '../../protocol/bytes.js';
import { parseRpcArguments, RpcArgumentError, type RpcArgument } from '../../protocol/rpc-arguments.js';
import { closestName } from './closest-name.js';
import { InvalidParamsError } from './errors.js';
import { stringifyExactJson } from '../../protocol/exact-json.js';

/**
 * A key no check sets. It makes ParamCheck an intersection type, which TypeScript can infer a method's params type
 * from when the check is a generic call such as `p.object(…)` beside a handler with untyped params: a generic call
 * typed as a plain function is skipped in that inference, and the handler's params would be `unknown`.
 */
declare const checked: unique symbol;

/** Turns raw JSON into a typed value or throws with a message that starts from `path`. */
export type ParamCheck<T> = ((value: unknown, path: string) => T) & { readonly [checked]?: T };

const MAX_UINT64 = (1n << 64n) - 1n;

const describe = (value: unknown): string =>
  value === undefined
    ? 'nothing (the field is missing)'
    : value === null
      ? 'null'
      : typeof value === 'bigint'
        ? `number ${value}` // a JSON integer beyond 2^53, read exactly (protocol/exact-json.ts)
        : Array.isArray(value)
          ? 'an array'
          : typeof value === 'string'
            ? `string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`
            : `${typeof value} ${stringifyExactJson(value)}`;

function fail(path: string, expected: string, value: unknown): never {
  throw new InvalidParamsError(`invalid params: '${path}' must be ${expected}, got ${describe(value)}`);
}

/** The name of field `key` of the object at `path`, as messages show it. */
const fieldPath = (path: string, key: string): string => (path === 'params' ? key : `${path}.${key}`);

const isPlainObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function refuseUnknownField(key: string, path: string, known: readonly string[]): never {
  const suggestion = closestName(key, known);
  throw new InvalidParamsError(
    `invalid params: unknown field '${fieldPath(path, key)}' ` +
      (suggestion ? `(did you mean '${suggestion}'?)` : `(known fields: ${known.join(', ')})`),
  );
}

type ObjectCheck<S extends Record<string, ParamCheck<unknown>>> = ParamCheck<{ [K in keyof S]: ReturnType<S[K]> }>;

export const p = {
  string(): ParamCheck<string> {
    return (value, path) => (typeof value === 'string' ? value : fail(path, 'a string', value));
  },
  bool(): ParamCheck<boolean> {
    return (value, path) => (typeof value === 'boolean' ? value : fail(path, 'a boolean', value));
  },
  /** A non-negative safe integer (below 2^53). */
  uint(): ParamCheck<number> {
    return (value, path) =>
      typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
        ? value
        : fail(path, 'a non-negative integer', value);
  },
  /** An unsigned 64-bit integer (amounts, fees), exact also beyond 2^53, where the parser gives a bigint. */
  uint64(): ParamCheck<bigint> {
    return (value, path) =>
      typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
        ? BigInt(value)
        : typeof value === 'bigint' && value >= 0n && value <= MAX_UINT64
          ? value
          : fail(path, `a non-negative integer up to ${MAX_UINT64}`, value);
  },
  int(): ParamCheck<number> {
    return (value, path) =>
      typeof value === 'number' && Number.isSafeInteger(value) ? value : fail(path, 'an integer', value);
  },
  /** 64 hexadecimal characters (a hash, txid, SCID), returned lower-case. */
  hash(): ParamCheck<string> {
    return (value, path) =>
      typeof value === 'string' && /^[0-9a-fA-F]{64}$/.test(value)
        ? value.toLowerCase()
        : fail(path, '64 hexadecimal characters', value);
  },
  /** Hexadecimal text of whole bytes, returned lower-case. */
  hex(): ParamCheck<string> {
    return (value, path) =>
      typeof value === 'string' && isWholeBytesHex(value)
        ? value.toLowerCase()
        : fail(path, 'hexadecimal text of whole bytes', value);
  },
  /** A list of RPC arguments (`payload_rpc`, `sc_rpc`): `{name, datatype, value}` objects, each name once. */
  rpcArguments(): ParamCheck<RpcArgument[]> {
    return (value, path) => {
      try {
        return parseRpcArguments(value, path);
      } catch (error) {
        if (error instanceof RpcArgumentError) throw new InvalidParamsError(`invalid params: ${error.message}`);
        throw error;
      }
    };
  },
  array<T>(item: ParamCheck<T>): ParamCheck<T[]> {
    return (value, path) =>
      Array.isArray(value) ? value.map((v, i) => item(v, `${path}[${i}]`)) : fail(path, 'an array', value);
  },
  /** An optional field: absent or null gives `fallback`. */
  optional<T, F extends T | undefined>(check: ParamCheck<T>, fallback: F): ParamCheck<T | F> {
    return (value, path) => (value === undefined || value === null ? fallback : check(value, path));
  },
  object<S extends Record<string, ParamCheck<unknown>>>(shape: S): ObjectCheck<S> {
    const keys = Object.keys(shape);
    return (value, path) => {
      if (!isPlainObject(value)) fail(path, 'an object', value);
      const byLowerName = new Map(Object.entries(value).map(([k, v]) => [k.toLowerCase(), v]));
      const out: Record<string, unknown> = {};
      for (const key of keys) out[key] = shape[key]!(byLowerName.get(key.toLowerCase()), fieldPath(path, key));
      return out as { [K in keyof S]: ReturnType<S[K]> };
    };
  },
  /**
   * An object that refuses keys its shape does not know, naming the key and the closest known one: for methods that
   * move money, where a misspelt key must not silently take its default (`ammount` sending 0 coins).
   */
  strictObject<S extends Record<string, ParamCheck<unknown>>>(shape: S): ObjectCheck<S> {
    const known = Object.keys(shape);
    const knownLower = new Set(known.map((key) => key.toLowerCase()));
    const check = p.object(shape);
    return (value, path) => {
      if (isPlainObject(value))
        for (const key of Object.keys(value))
          if (!knownLower.has(key.toLowerCase())) refuseUnknownField(key, path, known);
      return check(value, path);
    };
  },
};

/** Params of a method that takes none: absent, null, {} or [] are accepted, anything else is -32602. */
export const noParams: ParamCheck<undefined> = (value) => {
  const empty =
    value === undefined ||
    value === null ||
    (Array.isArray(value) && value.length === 0) ||
    (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);
  if (!empty) throw new InvalidParamsError('invalid params: this method takes no parameters');
  return undefined;
};

/** Wraps an object check so a missing `params` reads as an empty object (all fields then take their defaults). */
export function objectParams<T>(check: ParamCheck<T>): ParamCheck<T> {
  return (value, path) => check(value === undefined || value === null ? {} : value, path);
}
