/**
 * A contract call's deposits per asset (asset id → atomic units): every payload's burn, summed, as a transaction may
 * carry several payloads of one asset. The chain's execution, the daemon's trial run and the wallet's trial agree on
 * this sum through this one function.
 */
export function sumDeposits<Asset>(burns: Iterable<readonly [Asset, bigint]>): Map<Asset, bigint> {
  const deposits = new Map<Asset, bigint>();
  for (const [asset, burn] of burns) deposits.set(asset, (deposits.get(asset) ?? 0n) + burn);
  return deposits;
}
