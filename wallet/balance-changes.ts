/**
 * The history sync's change finder: the blocks after which the wallet's encrypted balance of an asset differs from
 * the one before, found by bisecting on equality of the encrypted balance — O(changes · log range) reads instead of
 * one per block. Equal encrypted balances at two topoheights are taken to mean no change between them (every change
 * re-encrypts the balance).
 */

/** An encrypted balance (GetEncryptedBalance hex) after block `topoheight`. */
export interface BalanceAt {
  topoheight: number;
  data: string;
}

/**
 * Every topoheight in (from, to] after which the encrypted balance differs from the one before, with the balance
 * there, in chain order. `read` gives the balance after a topoheight; undefined when there is none to compare, which
 * counts as unchanged.
 */
export async function findBalanceChanges(
  read: (topoheight: number) => Promise<string | undefined>,
  from: BalanceAt,
  to: BalanceAt,
): Promise<BalanceAt[]> {
  const changes: BalanceAt[] = [];
  const bisect = async (lo: BalanceAt, hi: BalanceAt): Promise<void> => {
    if (lo.data === hi.data) return;
    if (hi.topoheight === lo.topoheight + 1) {
      changes.push(hi);
      return;
    }
    const topoheight = Math.floor((lo.topoheight + hi.topoheight) / 2);
    const mid = { topoheight, data: (await read(topoheight)) ?? lo.data };
    await Promise.all([bisect(lo, mid), bisect(mid, hi)]);
  };
  await bisect(from, to);
  return changes.sort((a, b) => a.topoheight - b.topoheight);
}
