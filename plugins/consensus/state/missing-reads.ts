/**
 * The shape every batched read of the state shares: look each item up where it is at hand, then read all that were
 * not, together, in one call.
 */

/** `found`, whose missing (undefined) entries `readMissing` reads in one call, given their indices, in their order. */
export function fillMissing<T>(found: (T | undefined)[], readMissing: (missing: number[]) => T[]): T[] {
  const missing = missingOf(found);
  if (missing.length > 0) fill(found, missing, readMissing(missing));
  return found as T[];
}

/** As fillMissing, with a read that completes later (off the main thread). */
export async function fillMissingAsync<T>(
  found: (T | undefined)[],
  readMissing: (missing: number[]) => Promise<T[]>,
): Promise<T[]> {
  const missing = missingOf(found);
  if (missing.length > 0) fill(found, missing, await readMissing(missing));
  return found as T[];
}

const missingOf = <T>(found: (T | undefined)[]): number[] =>
  found.flatMap((item, i) => (item === undefined ? [i] : []));

function fill<T>(found: (T | undefined)[], missing: number[], read: T[]): void {
  read.forEach((item, j) => (found[missing[j]!] = item));
}
