/**
 * Contract values in bytes (docs/contracts.md § Types and values, "Stored form"): how a Uint64 or String variable is stored in a contract's
 * state tree, and its size for storage gas.
 *   Uint64 → unsigned LEB128 varint, then the type byte 0x04
 *   String → its bytes, then the type byte 0x05
 */
import { UmbraError } from '../core-native/ts/errors.js';

/** A contract value: a Uint64, or a String held as a byte string (one byte a char code). */
export type DvmValue = bigint | string;

export const UINT64_TYPE = 0x04;
export const STRING_TYPE = 0x05;

export const ContractValueErrorCode = {
  /** Stored bytes that are no Uint64 or String value. */
  Malformed: 'contract-value.malformed',
} as const;
export type ContractValueErrorCode = (typeof ContractValueErrorCode)[keyof typeof ContractValueErrorCode];

export class ContractValueError extends UmbraError<ContractValueErrorCode> {
  override readonly name = 'ContractValueError';
  constructor(message: string) {
    super(ContractValueErrorCode.Malformed, message);
  }
}

function varintLength(value: bigint): number {
  let length = 1;
  for (let v = value >> 7n; v > 0n; v >>= 7n) length++;
  return length;
}

/** The serialised size of a value: what STORE charges as storage gas. */
export function storedSize(value: DvmValue): number {
  return typeof value === 'bigint' ? varintLength(value) + 1 : value.length + 1;
}

export function serializeValue(value: DvmValue): Uint8Array {
  if (typeof value === 'string') {
    const out = Buffer.alloc(value.length + 1);
    out.write(value, 'latin1');
    out[value.length] = STRING_TYPE;
    return out;
  }
  const out = new Uint8Array(varintLength(value) + 1);
  let v = value;
  let i = 0;
  do {
    const low = Number(v & 0x7fn);
    v >>= 7n;
    out[i++] = v > 0n ? low | 0x80 : low;
  } while (v > 0n);
  out[i] = UINT64_TYPE;
  return out;
}

/** Strict inverse of serializeValue: a non-canonical varint or an unknown type byte is an error. */
export function deserializeValue(bytes: Uint8Array): DvmValue {
  if (bytes.length === 0) throw new ContractValueError('empty contract value');
  const type = bytes[bytes.length - 1]!;
  const body = bytes.subarray(0, bytes.length - 1);
  if (type === STRING_TYPE) return Buffer.from(body).toString('latin1');
  if (type !== UINT64_TYPE)
    throw new ContractValueError(`unknown contract value type byte 0x${type.toString(16).padStart(2, '0')}`);
  if (body.length === 0 || body.length > 10)
    throw new ContractValueError(`a Uint64 varint has 1 to 10 bytes, got ${body.length}`);
  let value = 0n;
  for (let i = 0; i < body.length; i++) {
    const last = i === body.length - 1;
    if (((body[i]! & 0x80) === 0) !== last) throw new ContractValueError('malformed Uint64 varint');
    value |= BigInt(body[i]! & 0x7f) << BigInt(7 * i);
  }
  if (body.length > 1 && body[body.length - 1] === 0) throw new ContractValueError('non-canonical Uint64 varint');
  if (value >> 64n) throw new ContractValueError('Uint64 varint out of range');
  return value;
}

/** A byte string (one byte per char code) from bytes, and back. */
export const byteString = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
export const stringBytes = (value: string): Uint8Array => Buffer.from(value, 'latin1');
/** UTF-8 text as a byte string (how literals, S arguments and source code enter the VM). */
export const utf8ByteString = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');
/** A byte string read as UTF-8 text, or undefined when it is not valid UTF-8. */
export function byteStringUtf8(value: string): string | undefined {
  const bytes = Buffer.from(value, 'latin1');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
