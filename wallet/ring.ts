/**
 * Rings: the sender, the receiver and decoys drawn from NODE.GetRandomAddress (holders of the payload's asset first,
 * then any registered account), placed at random with the sender and the receiver at indices of opposite parity
 * (the proof hides which member of each parity is the real one). A transaction that names no ring size gets the
 * default, or on a young chain the largest ring its registered accounts can fill.
 */
import { randomInt } from 'node:crypto';
import type { DaemonClient } from './daemon-client.js';
import { NATIVE_ASSET } from './wallet-constants.js';
import { WalletError, WalletErrorCode } from './wallet-error.js';

/** GetRandomAddress answers at most 100 addresses; a ring of 128 needs several draws. */
const DRAWS = 8;
const RANDOM_ADDRESS_LIMIT = 100;

/** The largest ring (a power of two) that `accounts` registered accounts can fill; 2 at least, the smallest ring. */
const largestRing = (accounts: number): number => 2 ** Math.floor(Math.log2(Math.max(accounts, 2)));

/** A ring asked for that the chain's registered accounts cannot fill; `option` is how the caller names the ring size. */
export class RingTooLargeError extends WalletError {
  constructor(
    readonly ringSize: number,
    readonly accounts: number,
    option = 'ringsize',
  ) {
    const largest = largestRing(accounts);
    super(
      WalletErrorCode.RingTooLarge,
      `ring ${ringSize} needs ${ringSize} registered accounts; this chain has ${accounts} — use ${option} ${largest}, or leave ${option} out for the largest ring it can fill`,
    );
  }
}

/**
 * The registered accounts the daemon offers for rings, when that is every one of them: one GetRandomAddress answer
 * shorter than its limit lists them all (a young chain); a full answer says nothing (undefined), and the decoy draw
 * decides.
 */
async function countedAccounts(daemon: DaemonClient): Promise<number | undefined> {
  const accounts = (await daemon.getRandomAddress()).length;
  return accounts < RANDOM_ADDRESS_LIMIT ? accounts : undefined;
}

/** Refuses, before anything is built, a ring larger than the chain's registered accounts (RingTooLargeError). */
export async function checkRingFits(daemon: DaemonClient, ringSize: number): Promise<void> {
  // A ring of 2 has no decoys: it is the sender and the receiver, whose registration is checked on its own.
  if (ringSize <= 2) return;
  const accounts = await countedAccounts(daemon);
  if (accounts !== undefined && accounts < ringSize) throw new RingTooLargeError(ringSize, accounts);
}

/** The ring size a transaction gets, and whether it is less than the default because the chain is young. */
export interface RingChoice {
  size: number;
  /** Set when no size was asked for and the chain cannot fill the default: the default, and the accounts there are. */
  lowered?: { from: number; accounts: number };
}

/**
 * The ring for a transaction: `asked` when given (refused as RingTooLargeError when the chain cannot fill it), else
 * `fallback`, or the largest ring the chain can fill when that is smaller.
 */
export async function chooseRing(
  daemon: DaemonClient,
  asked: number | undefined,
  fallback: number,
): Promise<RingChoice> {
  if (asked !== undefined) {
    await checkRingFits(daemon, asked);
    return { size: asked };
  }
  if (fallback <= 2) return { size: fallback };
  const accounts = await countedAccounts(daemon);
  if (accounts === undefined || accounts >= fallback) return { size: fallback };
  return { size: largestRing(accounts), lowered: { from: fallback, accounts } };
}

/** `count` distinct registered addresses outside `exclude` (for a payload of asset `scid` with a ring of `ringSize`). */
export async function drawDecoys(
  daemon: DaemonClient,
  scid: string,
  exclude: readonly string[],
  count: number,
  ringSize: number,
): Promise<string[]> {
  const picked = new Set<string>();
  for (let draw = 0; draw < DRAWS && picked.size < count; draw++) {
    // Holders of a token hide the payload best; accounts that never held it are valid members too.
    const addresses = await daemon.getRandomAddress(scid !== NATIVE_ASSET && draw < DRAWS / 2 ? scid : undefined);
    for (const address of addresses) if (picked.size < count && !exclude.includes(address)) picked.add(address);
  }
  if (picked.size < count) {
    throw new WalletError(
      WalletErrorCode.NotEnoughDecoys,
      `a ring of ${ringSize} needs ${count} other registered accounts, the daemon offered ${picked.size}; use a smaller ringsize`,
    );
  }
  return [...picked];
}

export interface ArrangedRing<T> {
  ring: T[];
  senderIndex: number;
  receiverIndex: number;
}

/** Places sender, receiver and decoys (ring size = decoys + 2, a power of two) at random positions. */
export function arrangeRing<T>(sender: T, receiver: T, decoys: readonly T[]): ArrangedRing<T> {
  const size = decoys.length + 2;
  const senderIndex = randomInt(size);
  const receiverIndex = 2 * randomInt(size / 2) + (1 - (senderIndex % 2));
  const shuffled = [...decoys];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const ring = Array.from({ length: size }, (_, i) =>
    i === senderIndex ? sender : i === receiverIndex ? receiver : shuffled.pop()!,
  );
  return { ring, senderIndex, receiverIndex };
}
