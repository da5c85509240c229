/** Byte-level encoding helpers shared by every wire format: a growable writer and a strict reader. */
import { UmbraError } from '../core-native/ts/errors.js';

export const DecodeErrorCode = {
  /** Bytes (or hex text) that are not a valid encoding of what was expected; the message names the field. */
  Malformed: 'decode.malformed',
} as const;
export type DecodeErrorCode = (typeof DecodeErrorCode)[keyof typeof DecodeErrorCode];

export class DecodeError extends UmbraError<DecodeErrorCode> {
  override readonly name = 'DecodeError';
  constructor(message: string) {
    super(DecodeErrorCode.Malformed, message);
  }
}

const MAX_UVARINT_BYTES = 10;

export class ByteWriter {
  private buffer = new Uint8Array(256);
  private length = 0;

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }

  /** Unsigned LEB128 (Go's PutUvarint format), at most 10 bytes. */
  uvarint(value: bigint | number): this {
    let v = BigInt(value);
    if (v < 0n || v >= 1n << 64n) throw new RangeError(`uvarint out of range: ${value}`);
    this.reserve(MAX_UVARINT_BYTES);
    while (v >= 0x80n) {
      this.buffer[this.length++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buffer[this.length++] = Number(v);
    return this;
  }

  byte(value: number): this {
    this.reserve(1);
    this.buffer[this.length++] = value & 0xff;
    return this;
  }

  /** Raw bytes; when `size` is given the input must have exactly that length. */
  bytes(data: Uint8Array, size?: number): this {
    if (size !== undefined && data.length !== size) throw new RangeError(`expected ${size} bytes, got ${data.length}`);
    this.reserve(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
    return this;
  }

  u64be(value: bigint | number): this {
    const v = BigInt(value);
    this.reserve(8);
    new DataView(this.buffer.buffer).setBigUint64(this.length, v);
    this.length += 8;
    return this;
  }

  finish(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

export class ByteReader {
  private offset = 0;

  /** @param what names the thing being decoded, for error messages. */
  constructor(
    private readonly data: Uint8Array,
    private readonly what: string,
  ) {}

  get position(): number {
    return this.offset;
  }

  get remaining(): number {
    return this.data.length - this.offset;
  }

  fail(message: string): never {
    throw new DecodeError(`${this.what}: ${message} (at byte ${this.offset})`);
  }

  uvarint(field: string): bigint {
    let result = 0n;
    for (let i = 0; i < MAX_UVARINT_BYTES; i++) {
      if (this.offset >= this.data.length) this.fail(`truncated ${field}`);
      const byte = this.data[this.offset++]!;
      result |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if ((byte & 0x80) === 0) {
        if (i > 0 && byte === 0) this.fail(`non-canonical ${field}`);
        if (result >= 1n << 64n) this.fail(`${field} overflows 64 bits`);
        return result;
      }
    }
    return this.fail(`${field} is longer than ${MAX_UVARINT_BYTES} bytes`);
  }

  /** A uvarint that must be at most `max`, returned as a number. */
  smallUvarint(field: string, max: number): number {
    const value = this.uvarint(field);
    if (value > BigInt(max)) this.fail(`${field} ${value} exceeds the limit of ${max}`);
    return Number(value);
  }

  byte(field: string): number {
    if (this.offset >= this.data.length) this.fail(`truncated ${field}`);
    return this.data[this.offset++]!;
  }

  private need(size: number, field: string): void {
    if (this.remaining < size) this.fail(`truncated ${field}: needs ${size} bytes, ${this.remaining} left`);
  }

  bytes(size: number, field: string): Uint8Array {
    this.need(size, field);
    const out = this.data.slice(this.offset, this.offset + size);
    this.offset += size;
    return out;
  }

  /**
   * The next `size` bytes as a view of the data, not a copy: for a decoder whose input nobody changes afterwards (one
   * buffer under many fields, where copies would each be a buffer of their own).
   */
  view(size: number, field: string): Uint8Array {
    this.need(size, field);
    return this.data.subarray(this.offset, (this.offset += size));
  }

  /** `count` fields of `size` bytes each, one after the other, as views of the data (see `view`). */
  views(count: number, size: number, field: string): Uint8Array[] {
    const all = this.view(count * size, field);
    return Array.from({ length: count }, (_, i) => all.subarray(i * size, (i + 1) * size));
  }

  u64be(field: string): bigint {
    const bytes = this.bytes(8, field);
    return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0);
  }

  /** Rejects trailing bytes. */
  end(): void {
    if (this.remaining !== 0) this.fail(`${this.remaining} unexpected trailing bytes`);
  }
}

export const toHex = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/** Hexadecimal text of whole bytes (a plain character class: a transaction's kilobytes are checked per request). */
export const isWholeBytesHex = (text: string): boolean => text.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(text);

/** Strict hex decoding: even length, hex digits only, and an exact size when one is given. */
export function fromHex(hex: string, size?: number, what = 'hex value'): Uint8Array {
  if (!isWholeBytesHex(hex)) throw new DecodeError(`${what} is not hexadecimal text of whole bytes`);
  if (size !== undefined && hex.length !== size * 2)
    throw new DecodeError(`${what} must be ${size} bytes (${size * 2} hex characters), got ${hex.length / 2}`);
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
