/** Balance tables from the addon (core-native/src/balance/): the table stays a JS-owned buffer passed in per call. */
import { DEFAULT_MAX_BALANCE, type BalanceCore, type BalanceTable, type DecodeOptions } from '../balance.js';

export interface BalanceAddon {
  balanceTableBuild(base: Uint8Array, bits: number): Uint8Array;
  /** Throws when the bytes are not a well-formed table. */
  balanceTableCheck(table: Uint8Array): void;
  /** `hints` is n·8 bytes of little-endian u64. */
  balanceDecode(table: Uint8Array, point: Uint8Array, hints: Uint8Array, maxValue: bigint): bigint | null;
}

const U64_MAX = (1n << 64n) - 1n;

function encodeHints(hints: readonly bigint[] = []): Uint8Array {
  const usable = hints.filter((h) => typeof h === 'bigint' && h >= 0n && h <= U64_MAX);
  const out = Buffer.alloc(usable.length * 8);
  usable.forEach((h, i) => out.writeBigUInt64LE(h, i * 8));
  return out;
}

export function nativeBalance(addon: BalanceAddon): BalanceCore {
  function wrap(bytes: Uint8Array): BalanceTable {
    const bits = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readUInt32LE(12);
    return {
      bits,
      base: bytes.slice(16, 80),
      serialize: () => bytes,
      decode(point: Uint8Array, options: DecodeOptions = {}) {
        const maxValue = options.maxValue ?? DEFAULT_MAX_BALANCE;
        if (maxValue < 0n) return null;
        return addon.balanceDecode(bytes, point, encodeHints(options.hints), maxValue > U64_MAX ? U64_MAX : maxValue);
      },
    };
  }
  return {
    defaultBalanceTableBits: 21,
    buildBalanceTable: (base, bits = 21) => wrap(addon.balanceTableBuild(base, bits)),
    loadBalanceTable(bytes) {
      addon.balanceTableCheck(bytes);
      return wrap(bytes);
    },
  };
}
