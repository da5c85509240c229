/**
 * Reads an amount out of an encrypted balance (NODE.GetEncryptedBalance `data`): b·G = L − sk·R with the wallet's
 * secret key (ElGamal in the exponent), then b from the core's baby-step giant-step tables, each loaded from the on-disk
 * cache, or built there, on the first decode that needs it rather than at start-up — once per process: every decoder of
 * the same implementation, base and cache directory shares them (`umbra simulator` runs 22 wallets and the simulator
 * plugin in one process). A small table (≈ 0.5 MB) answers the amounts most decodes meet, those below SMALL_TABLE_REACH,
 * in a few hundred giant steps; the full one (≈ 8.3 MB natively) is loaded only for a larger amount.
 */
import { DEFAULT_MAX_BALANCE, type BalanceTable } from '../core-native/ts/balance.js';
import { balanceTablePath, loadOrBuildBalanceTable } from '../core-native/ts/balance-cache.js';
import type { Core } from '../core-native/ts/core.js';
import { ElGamal } from '../core-native/ts/elgamal.js';
import { equalBytes, fromHex } from '../protocol/bytes.js';
import { decodeNonceBalance } from '../protocol/nonce-balance.js';
import { WalletError, WalletErrorCode } from './wallet-error.js';

const MAX_U64 = (1n << 64n) - 1n;

/** The small table's size: 2^16 baby steps and the fixed 256 KiB index. */
export const SMALL_TABLE_BITS = 16;
/** The amounts the small table is asked for: below 2^24 (167 coins), at most 128 giant steps of 2^17. */
const SMALL_TABLE_REACH = 1n << 24n;

/** The tables this process has loaded, by implementation and file: read-only once built, so any decoder may use them. */
const sharedTables = new Map<string, BalanceTable>();

function sharedTable(core: Core, base: Uint8Array, dir: string, bits = core.defaultBalanceTableBits): BalanceTable {
  const key = `${core.impl} ${balanceTablePath(core, { dir, base, bits })}`;
  let table = sharedTables.get(key);
  if (!table) {
    table = loadOrBuildBalanceTable(core, { dir, base, bits });
    sharedTables.set(key, table);
  }
  return table;
}

export class BalanceDecoder {
  private readonly elgamal: ElGamal;
  private smallTable?: BalanceTable;
  private table?: BalanceTable;

  /** @param G the network's value base (`core.generators(domain).G`); @param tableDir where the table is cached. */
  constructor(
    private readonly core: Core,
    private readonly G: Uint8Array,
    private readonly tableDir: string,
  ) {
    this.elgamal = new ElGamal(core, G);
  }

  /** The amount encrypted in `data` (hex of uvarint nonce height ‖ L ‖ R) under the key of `secretKey`. */
  decode(data: string, secretKey: Uint8Array, hint?: bigint | readonly bigint[]): bigint {
    let L: Uint8Array;
    let R: Uint8Array;
    try {
      const balance = decodeNonceBalance(fromHex(data));
      L = this.core.g1Decompress(balance.L);
      R = this.core.g1Decompress(balance.R);
    } catch (error) {
      throw new WalletError(
        WalletErrorCode.MalformedBalance,
        `the daemon sent a malformed encrypted balance: ${(error as Error).message}`,
      );
    }
    const point = this.elgamal.decryptToPoint({ L, R }, secretKey);
    const amount = this.decodePoint(point, hint === undefined ? [] : typeof hint === 'bigint' ? [hint] : hint);
    if (amount === null)
      throw new WalletError(
        WalletErrorCode.UndecodableBalance,
        `the balance cannot be decoded: it is above ${DEFAULT_MAX_BALANCE} atomic units`,
      );
    return amount;
  }

  /**
   * b with b·G = `point` (64 bytes), trying `hints` first — without a table, so a process whose balances are all
   * hinted never loads one; then the small table, then the full one; null when no b up to the bound exists (e.g.
   * negative).
   */
  decodePoint(point: Uint8Array, hints: readonly bigint[] = []): bigint | null {
    const hinted = hints.find((h) => h >= 0n && h <= MAX_U64 && equalBytes(this.elgamal.amountPoint(h), point));
    if (hinted !== undefined) return hinted;
    // An implementation whose full table is no larger (the TypeScript fallback's) goes to it directly.
    if (this.core.defaultBalanceTableBits > SMALL_TABLE_BITS) {
      this.smallTable ??= sharedTable(this.core, this.G, this.tableDir, SMALL_TABLE_BITS);
      const small = this.smallTable.decode(point, { maxValue: SMALL_TABLE_REACH - 1n });
      if (small !== null) return small;
    }
    this.table ??= sharedTable(this.core, this.G, this.tableDir);
    return this.table.decode(point);
  }
}
