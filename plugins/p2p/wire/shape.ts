/**
 * Shape checks for decoded message bodies. CBOR decodes into whatever the sender chose to send, so every field is
 * checked for type, size and range before anything uses it; a failure throws a ProtocolError naming the field.
 */
import { UmbraError } from '../../../core-native/ts/errors.js';
import { P2pErrorCode } from '../p2p-errors.js';

export class ProtocolError extends UmbraError<P2pErrorCode> {
  override readonly name = 'ProtocolError';
  constructor(message: string) {
    super(P2pErrorCode.BadMessage, message);
  }
}

/** Checks a decoded value and returns it typed; `path` names it in errors. */
export type Shape<T> = (value: unknown, path: string) => T;

const fail = (path: string, expected: string): never => {
  throw new ProtocolError(`${path} must be ${expected}`);
};

export const uint: Shape<number> = (value, path) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : fail(path, 'a non-negative integer');

/** A non-negative integer of any size (CBOR sends small ones as plain integers, large ones as bignums). */
export const bigUint: Shape<bigint> = (value, path) => {
  if (typeof value === 'bigint' && value >= 0n) return value;
  return BigInt(uint(value, path));
};

export function text(maxLength: number): Shape<string> {
  return (value, path) =>
    typeof value === 'string' && value.length <= maxLength
      ? value
      : fail(path, `text of at most ${maxLength} characters`);
}

/** A byte string of exactly `size` bytes, or of at most `max` bytes. */
export function bytes(size: { exactly: number } | { max: number }): Shape<Uint8Array> {
  return (value, path) => {
    if (!(value instanceof Uint8Array)) return fail(path, 'a byte string');
    if ('exactly' in size ? value.length !== size.exactly : value.length > size.max) {
      return fail(path, 'exactly' in size ? `${size.exactly} bytes` : `at most ${size.max} bytes`);
    }
    return value;
  };
}

export function list<T>(item: Shape<T>, maxItems: number): Shape<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) return fail(path, 'an array');
    if (value.length > maxItems) return fail(path, `an array of at most ${maxItems} items`);
    return value.map((v, i) => item(v, `${path}[${i}]`));
  };
}

/** A map with these fields; other fields are dropped, so a later protocol version may add some. */
export function record<T extends Record<string, unknown>>(fields: { [K in keyof T]: Shape<T[K]> }): Shape<T> {
  const names = Object.keys(fields);
  return (value, path) => {
    if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
      return fail(path, 'a map');
    const out: Record<string, unknown> = {};
    for (const name of names)
      out[name] = fields[name as keyof T]((value as Record<string, unknown>)[name], `${path}.${name}`);
    return out as T;
  };
}
