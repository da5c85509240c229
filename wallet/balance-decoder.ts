/**
 * Reads an amount out of an encrypted balance (NODE.GetEncryptedBalance `data`): b·G = L − sk·R with the wallet's
 * secret key (ElGamal in the exponent), then b from the core's baby-step giant-step table. The table (≈ 18 MB
 * natively) comes from the on-disk cache, or is built there, on the first decode rather than at start-up.
 */
import { DEFAULT_MAX_BALANCE, type BalanceTable } from '../core-native/ts/balance.js';
import { loadOrBuildBalanceTable } from '../core-native/ts/balance-cache.js';
import type { Core } from '../core-native/ts/core.js';
import { ElGamal } from '../core-native/ts/elgamal.js';
import { fromHex } from '../host/protocol/bytes.js';
import { decodeNonceBalance } from '../host/protocol/nonce-balance.js';
import { WalletError, WalletErrorCode } from './wallet-error.js';

export class BalanceDecoder {
  private readonly elgamal: ElGamal;
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

  /** b with b·G = `point` (64 bytes), trying `hints` first; null when no b up to the bound exists (e.g. negative). */
  decodePoint(point: Uint8Array, hints: readonly bigint[] = []): bigint | null {
    this.table ??= loadOrBuildBalanceTable(this.core, { dir: this.tableDir, base: this.G });
    return this.table.decode(point, { hints: hints.filter((h) => h >= 0n) });
  }
}
