/**
 * The wallet's own balance per asset, decoded from the encrypted form the daemon gives (GetEncryptedBalance's hex)
 * and remembered with it, so that an unchanged balance is not decoded twice.
 */
import type { BalanceDecoder } from './balance-decoder.js';

export class OwnBalances {
  private readonly decoded = new Map<string, { data: string; amount: bigint }>();

  constructor(
    private readonly decoder: BalanceDecoder,
    private readonly secretKey: Uint8Array,
  ) {}

  /** The amount of the wallet's encrypted balance `data` of asset `scid`. */
  amount(scid: string, data: string): bigint {
    const cached = this.decoded.get(scid);
    if (cached?.data === data) return cached.amount;
    // The previous amount is the first guess: being a ring member re-encrypts a balance without changing it.
    const amount = this.decoder.decode(data, this.secretKey, cached?.amount);
    this.decoded.set(scid, { data, amount });
    return amount;
  }
}
