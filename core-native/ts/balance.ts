/**
 * Balance decoding (docs/cryptography.md § Balance decoding): find b with b·G = P by baby-step giant-step.
 *
 * A table holds 2^bits − 1 baby steps for one base point G (the domain's `generators(domain).G`). With the ±
 * symmetry of x coordinates, a value up to about 2^(bits+1)·s is found in s giant steps. Both implementations
 * use the same serialised table format, so a table built natively can be cached on disk and loaded by either.
 * Native builds 2^21 entries by default (4 bytes each, ≈ 8.3 MB) in about a second; the fallback defaults to 2^16 (it is ~100×
 * slower per step) and says so in `defaultBalanceTableBits`.
 */
export interface DecodeOptions {
  /** Values to try before searching (e.g. the previous balance plus or minus known changes). */
  hints?: readonly bigint[];
  /** Give up above this value (default DEFAULT_MAX_BALANCE). */
  maxValue?: bigint;
}

/** The table format's version (core-native/src/balance/mod.rs `VERSION`): in the header and the cache's file name. */
export const BALANCE_TABLE_VERSION = 2;

/** 2^41 atomic units (≈ 2.2·10^12, above the total supply): the default search bound. */
export const DEFAULT_MAX_BALANCE = 1n << 41n;

export interface BalanceTable {
  /** The table holds 2^bits − 1 baby steps. */
  readonly bits: number;
  /** The base point G (64 bytes). */
  readonly base: Uint8Array;
  /** The table's bytes (the format core-native/src/balance/mod.rs documents); `loadBalanceTable` reads them back. */
  serialize(): Uint8Array;
  /** b with b·G = point (64-byte point), or null when no b ≤ maxValue exists. */
  decode(point: Uint8Array, options?: DecodeOptions): bigint | null;
}

export interface BalanceCore {
  /** The table size this implementation builds by default (native 21, fallback 16). */
  readonly defaultBalanceTableBits: number;
  /** Builds a table for base G with 2^bits − 1 baby steps (8 ≤ bits ≤ 24). */
  buildBalanceTable(base: Uint8Array, bits?: number): BalanceTable;
  /** Reads a serialised table back; throws on a truncated or foreign file. */
  loadBalanceTable(bytes: Uint8Array): BalanceTable;
}
