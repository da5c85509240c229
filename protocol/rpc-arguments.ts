/**
 * RPC arguments (docs/cryptography.md § Keys and addresses, "RPC arguments"): the `{name, datatype, value}` lists carried by
 * integrated addresses, transfer payloads (`payload_rpc`) and contract calls (`sc_rpc`).
 *
 * Byte form: a CBOR map from `name ‖ datatype letter` to the value — `S` a text string, `U` an unsigned integer,
 * `H` a 32-byte byte string — in core-deterministic encoding (RFC 8949 §4.2.1: shortest heads, definite lengths,
 * keys sorted by their encoded bytes). `{"DU": 1337}` is `a1 62 4455 19 0539`, as in the reference. Written by hand
 * for just this subset so that decoding can be strict: anything but the canonical encoding of a valid list is
 * rejected, so every list has exactly one byte form. Trailing zero bytes (payload padding) are ignored.
 */
import { UmbraError } from '../core-native/ts/errors.js';

export type RpcDatatype = 'S' | 'U' | 'H';
export const RPC_DATATYPES: readonly RpcDatatype[] = ['S', 'U', 'H'];

/** One argument: S carries a string, U a uint64 as bigint, H a 32-byte hash as 64 lowercase hex digits. */
export type RpcArgument =
  | { name: string; datatype: 'S'; value: string }
  | { name: string; datatype: 'U'; value: bigint }
  | { name: string; datatype: 'H'; value: string };

export const RpcArgumentErrorCode = {
  /** A `{name, datatype, value}` list that is not one: a bad name, datatype or value, a repeated name. */
  Invalid: 'rpc-arguments.invalid',
  /** Bytes that are not the canonical encoding of an argument list. */
  Malformed: 'rpc-arguments.malformed',
} as const;
export type RpcArgumentErrorCode = (typeof RpcArgumentErrorCode)[keyof typeof RpcArgumentErrorCode];

export class RpcArgumentError extends UmbraError<RpcArgumentErrorCode> {
  override readonly name = 'RpcArgumentError';
}

const MAX_U64 = (1n << 64n) - 1n;
const HASH_HEX = /^[0-9a-fA-F]{64}$/;
const MAJOR_UINT = 0;
const MAJOR_BYTES = 2;
const MAJOR_TEXT = 3;
const MAJOR_MAP = 5;

/**
 * Checks one argument in its JSON shape (`value`: string for S and H, integer for U; a bigint or a decimal string
 * is also accepted for U, since JSON numbers cannot hold every uint64) and returns it normalised.
 */
export function parseRpcArgument(input: unknown, where = 'argument'): RpcArgument {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new RpcArgumentError(RpcArgumentErrorCode.Invalid, `${where} must be an object {name, datatype, value}`);
  const { name, datatype, value } = input as Record<string, unknown>;
  if (typeof name !== 'string' || name.length === 0)
    throw new RpcArgumentError(RpcArgumentErrorCode.Invalid, `${where}: name must be a non-empty string`);
  const at = `${where} '${name}'`;
  switch (datatype) {
    case 'S':
      if (typeof value !== 'string')
        throw new RpcArgumentError(RpcArgumentErrorCode.Invalid, `${at}: datatype S needs a string value`);
      return { name, datatype, value };
    case 'U': {
      let v: bigint;
      if (typeof value === 'bigint') v = value;
      else if (typeof value === 'number' && Number.isInteger(value)) {
        if (!Number.isSafeInteger(value))
          throw new RpcArgumentError(
            RpcArgumentErrorCode.Invalid,
            `${at}: ${value} is not exact as a JSON number; pass it as a decimal string`,
          );
        v = BigInt(value);
      } else if (typeof value === 'string' && /^[0-9]+$/.test(value)) v = BigInt(value);
      else
        throw new RpcArgumentError(
          RpcArgumentErrorCode.Invalid,
          `${at}: datatype U needs a non-negative integer value`,
        );
      if (v < 0n || v > MAX_U64)
        throw new RpcArgumentError(RpcArgumentErrorCode.Invalid, `${at}: ${v} is out of range for U (0 … 2^64 − 1)`);
      return { name, datatype, value: v };
    }
    case 'H':
      if (typeof value !== 'string' || !HASH_HEX.test(value))
        throw new RpcArgumentError(RpcArgumentErrorCode.Invalid, `${at}: datatype H needs 64 hex characters`);
      return { name, datatype, value: value.toLowerCase() };
    default:
      throw new RpcArgumentError(
        RpcArgumentErrorCode.Invalid,
        `${at}: unknown datatype ${JSON.stringify(datatype)} (expected S, U or H)`,
      );
  }
}

/** Checks a whole list (as received over JSON-RPC); a name may appear only once. */
export function parseRpcArguments(input: unknown, where = 'arguments'): RpcArgument[] {
  if (!Array.isArray(input)) throw new RpcArgumentError(RpcArgumentErrorCode.Invalid, `${where} must be an array`);
  const args = input.map((item, i) => parseRpcArgument(item, `${where}[${i}]`));
  const seen = new Set<string>();
  for (const arg of args) {
    if (seen.has(arg.name))
      throw new RpcArgumentError(
        RpcArgumentErrorCode.Invalid,
        `${where}: argument '${arg.name}' appears more than once`,
      );
    seen.add(arg.name);
  }
  return args;
}

/**
 * The JSON shape with U values that a JSON number cannot hold exactly left as bigints, for writers that put bigints
 * out with all their digits (the RPC answers, protocol/exact-json.ts).
 */
export function rpcArgumentToExactJson(arg: RpcArgument): {
  name: string;
  datatype: RpcDatatype;
  value: string | number | bigint;
} {
  if (arg.datatype === 'U')
    return {
      name: arg.name,
      datatype: 'U',
      value: arg.value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(arg.value) : arg.value,
    };
  return { name: arg.name, datatype: arg.datatype, value: arg.value };
}

function head(major: number, value: number | bigint): number[] {
  const v = BigInt(value);
  const m = major << 5;
  if (v < 24n) return [m | Number(v)];
  const sizes: [number, number][] = [
    [24, 1],
    [25, 2],
    [26, 4],
    [27, 8],
  ];
  for (const [info, bytes] of sizes) {
    if (v < 1n << BigInt(8 * bytes)) {
      const out = [m | info];
      for (let i = bytes - 1; i >= 0; i--) out.push(Number((v >> BigInt(8 * i)) & 0xffn));
      return out;
    }
  }
  throw new RpcArgumentError(RpcArgumentErrorCode.Invalid, `value ${v} does not fit in 64 bits`);
}

const utf8 = new TextEncoder();

function textItem(text: string): number[] {
  const bytes = utf8.encode(text);
  return [...head(MAJOR_TEXT, bytes.length), ...bytes];
}

function compareBytes(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** The canonical CBOR bytes of a list (validated first; duplicate names are an error). */
export function encodeRpcArguments(args: readonly RpcArgument[]): Uint8Array {
  const checked = parseRpcArguments(args);
  const entries = checked.map((arg) => {
    const key = textItem(arg.name + arg.datatype);
    let value: number[];
    if (arg.datatype === 'S') value = textItem(arg.value);
    else if (arg.datatype === 'U') value = head(MAJOR_UINT, arg.value);
    else value = [...head(MAJOR_BYTES, 32), ...Buffer.from(arg.value, 'hex')];
    return { key, value };
  });
  entries.sort((a, b) => compareBytes(a.key, b.key));
  return Uint8Array.from([...head(MAJOR_MAP, entries.length), ...entries.flatMap((e) => [...e.key, ...e.value])]);
}

class Reader {
  at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  private byte(): number {
    if (this.at >= this.bytes.length)
      throw new RpcArgumentError(RpcArgumentErrorCode.Malformed, 'encoded arguments end too early');
    return this.bytes[this.at++]!;
  }

  /** A head with the expected major type and its shortest-form argument. */
  head(major: number, what: string): bigint {
    const first = this.byte();
    if (first >> 5 !== major)
      throw new RpcArgumentError(
        RpcArgumentErrorCode.Malformed,
        `encoded arguments: expected ${what}, found CBOR major type ${first >> 5}`,
      );
    const info = first & 31;
    if (info < 24) return BigInt(info);
    if (info > 27)
      throw new RpcArgumentError(
        RpcArgumentErrorCode.Malformed,
        `encoded arguments: ${info === 31 ? 'indefinite lengths are not allowed' : 'malformed CBOR head'}`,
      );
    const bytes = 1 << (info - 24);
    let v = 0n;
    for (let i = 0; i < bytes; i++) v = (v << 8n) | BigInt(this.byte());
    const shortest = v < 24n ? 0 : v < 0x100n ? 1 : v < 0x10000n ? 2 : v < 0x100000000n ? 4 : 8;
    if (bytes !== shortest)
      throw new RpcArgumentError(RpcArgumentErrorCode.Malformed, 'encoded arguments: not in canonical (shortest) form');
    return v;
  }

  take(length: bigint): Uint8Array {
    if (length > BigInt(this.bytes.length - this.at))
      throw new RpcArgumentError(RpcArgumentErrorCode.Malformed, 'encoded arguments end too early');
    const out = this.bytes.slice(this.at, this.at + Number(length));
    this.at += Number(length);
    return out;
  }

  text(what: string): { text: string; raw: number[] } {
    const start = this.at;
    const bytes = this.take(this.head(MAJOR_TEXT, what));
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new RpcArgumentError(RpcArgumentErrorCode.Malformed, `encoded arguments: ${what} is not valid UTF-8`);
    }
    return { text, raw: Array.from(this.bytes.subarray(start, this.at)) };
  }

  rest(): Uint8Array {
    return this.bytes.subarray(this.at);
  }
}

/**
 * Splits canonical bytes back into the list, sorted by name (as the reference does). Accepts trailing zero bytes
 * (zero-padded payloads); rejects anything else that is not the exact output of `encodeRpcArguments`.
 */
export function decodeRpcArguments(bytes: Uint8Array): RpcArgument[] {
  const reader = new Reader(bytes);
  const count = reader.head(MAJOR_MAP, 'a map');
  if (count > BigInt(bytes.length))
    throw new RpcArgumentError(RpcArgumentErrorCode.Malformed, 'encoded arguments end too early');
  const args: RpcArgument[] = [];
  let previousKey: number[] | undefined;
  for (let i = 0n; i < count; i++) {
    const { text: key, raw } = reader.text('an argument key');
    if (previousKey && compareBytes(previousKey, raw) >= 0)
      throw new RpcArgumentError(
        RpcArgumentErrorCode.Malformed,
        'encoded arguments: keys are not in canonical order (or repeat)',
      );
    previousKey = raw;
    if (key.length < 2)
      throw new RpcArgumentError(
        RpcArgumentErrorCode.Malformed,
        `encoded arguments: key ${JSON.stringify(key)} lacks a name or a datatype`,
      );
    const name = key.slice(0, -1);
    const datatype = key.slice(-1);
    if (datatype === 'S') args.push({ name, datatype, value: reader.text(`the value of '${name}'`).text });
    else if (datatype === 'U')
      args.push({ name, datatype, value: reader.head(MAJOR_UINT, `an unsigned integer for '${name}'`) });
    else if (datatype === 'H') {
      const length = reader.head(MAJOR_BYTES, `a byte string for '${name}'`);
      if (length !== 32n)
        throw new RpcArgumentError(
          RpcArgumentErrorCode.Malformed,
          `encoded arguments: hash '${name}' is ${length} bytes, expected 32`,
        );
      args.push({ name, datatype, value: Buffer.from(reader.take(length)).toString('hex') });
    } else
      throw new RpcArgumentError(
        RpcArgumentErrorCode.Malformed,
        `encoded arguments: unsupported datatype ${JSON.stringify(datatype)} in key ${JSON.stringify(key)} (expected S, U or H)`,
      );
  }
  if (!reader.rest().every((b) => b === 0))
    throw new RpcArgumentError(RpcArgumentErrorCode.Malformed, 'encoded arguments: unexpected bytes after the map');
  const names = new Set<string>();
  for (const arg of args) {
    if (names.has(arg.name))
      throw new RpcArgumentError(
        RpcArgumentErrorCode.Malformed,
        `encoded arguments: argument '${arg.name}' appears more than once`,
      );
    names.add(arg.name);
  }
  return args.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
