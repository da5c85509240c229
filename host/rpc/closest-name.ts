/** Finds the known name a misspelt one was most likely meant to be, for "did you mean …?" messages. */

/**
 * Edit distance: the fewest single-character insertions, deletions, substitutions and swaps of two neighbours from
 * `a` to `b` (a swap is the commonest slip: `sedn` for `send`).
 */
export function editDistance(a: string, b: string): number {
  // Rows of the dynamic-programming table: row i holds the distances from a[0, i) to every b[0, j).
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        current[j] = Math.min(current[j]!, before[j - 2]! + 1);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate nearest to `name` (case-insensitively), or undefined when none is near enough to be a plausible
 * typo: at most a third of the longer name may differ, and always at least one character may.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (!best) return undefined;
  const allowed = Math.max(1, Math.floor(Math.max(name.length, best.candidate.length) / 3));
  return best.distance <= allowed ? best.candidate : undefined;
}
