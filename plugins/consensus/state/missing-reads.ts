/**
 * The shape every batched read of the state shares: look each item up where it is at hand, then read all that were
 * not, together, in one call.
 */

/** `found`, whose missing (undefined) entries `readMissing` reads in one call, given their indices, in their order. */
export function fillMissing<T>(found: (T | undefined)[], readMissing: (missing: number[]) => T[]): T[] {
  const missing = found.flatMap((item, i) => (item === undefined ? [i] : []));
  if (missing.length > 0) readMissing(missing).forEach((item, j) => (found[missing[j]!] = item));
  return found as T[];
}
