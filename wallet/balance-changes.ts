/**
 * The history sync's change finder: the blocks after which the wallet's encrypted balance of an asset differs from
 * the one before. An Umbra daemon lists them (NODE.GetBalanceChanges, up to 1000 per call); from other daemons they
 * are found by bisecting on equality of the encrypted balance — O(changes · log range) GetEncryptedBalance reads
 * instead of one per block. Equal encrypted balances at two topoheights are taken to mean no change between them
 * (every change re-encrypts the balance).
 */
import { UmbraError } from '../core-native/ts/errors.js';
import { DaemonClientErrorCode, DaemonUnavailableError, type BalanceAt, type DaemonClient } from './daemon-client.js';

export type { BalanceAt };

/**
 * Every change in (from, to] of `address`'s encrypted balance of `scid` as the daemon lists them, in chain order;
 * undefined when the daemon does not offer the listing.
 */
export async function listBalanceChanges(
  daemon: DaemonClient,
  address: string,
  scid: string,
  from: number,
  to: number,
): Promise<BalanceAt[] | undefined> {
  const changes: BalanceAt[] = [];
  for (let covered = from; covered < to; ) {
    let answer;
    try {
      answer = await daemon.getBalanceChanges(address, scid, covered, to);
    } catch (error) {
      if (UmbraError.is(error, DaemonClientErrorCode.Unsupported)) return undefined;
      throw error;
    }
    changes.push(...answer.changes);
    if (answer.complete) break;
    if (!(answer.to_topoheight > covered))
      throw new DaemonUnavailableError(`the daemon's balance changes stopped at topoheight ${answer.to_topoheight}`);
    covered = answer.to_topoheight;
  }
  return changes;
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
