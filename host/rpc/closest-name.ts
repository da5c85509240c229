/** Finds the known name a misspelt one was most likely meant to be, for "did you mean …?" messages. */

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  // One row of the dynamic-programming table at a time: previous[j] is the distance from a[0, i) to b[0, j).
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
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
