/**
 * A dudect-style timing-leak test (Reparaz, Balasch and Verbauwhede, "Dude, is my code constant time?", 2017): time
 * one operation on two classes of secret inputs interleaved in random order, and compare the two distributions of
 * durations with Welch's t statistic. Long tails (interrupts, other processes) hide or fake differences, so the
 * statistic is also taken on the samples below each of a series of percentiles of all durations, and the largest
 * |t| is reported. |t| above 4.5 is dudect's threshold for "the timings depend on the class".
 */

/** Welch's t for two samples, from their counts, sums and sums of squares. */
function welch(a: Moments, b: Moments): number {
  const meanA = a.sum / a.n;
  const meanB = b.sum / b.n;
  const varA = (a.squares - a.n * meanA * meanA) / (a.n - 1);
  const varB = (b.squares - b.n * meanB * meanB) / (b.n - 1);
  return (meanA - meanB) / Math.sqrt(varA / a.n + varB / b.n);
}

interface Moments {
  n: number;
  sum: number;
  squares: number;
}

/** Crops below these fractions of all samples: 1 − 0.5^(10·(i+1)/CROPS), dense near the top as in dudect. */
const CROPS = 100;
/** A crop is used only when each class keeps at least this many samples. */
const MIN_PER_CLASS = 100;

/**
 * The largest |t| between the durations of class 0 and class 1 (`classes[i]` is the class of `times[i]`), over the
 * whole set and every percentile crop.
 */
export function maxAbsT(times: Float64Array, classes: Uint8Array): number {
  const sorted = Float64Array.from(times).sort();
  const thresholds = [Number.POSITIVE_INFINITY];
  for (let i = 0; i < CROPS; i++) {
    const fraction = 1 - 0.5 ** ((10 * (i + 1)) / CROPS);
    thresholds.push(sorted[Math.floor(fraction * (sorted.length - 1))]!);
  }
  // Sums of squares around the median rather than zero keep the variance exact in doubles.
  const median = sorted[sorted.length >> 1]!;
  let worst = 0;
  for (const limit of thresholds) {
    const moments: Moments[] = [
      { n: 0, sum: 0, squares: 0 },
      { n: 0, sum: 0, squares: 0 },
    ];
    for (let i = 0; i < times.length; i++) {
      if (times[i]! > limit) continue;
      const t = times[i]! - median;
      const m = moments[classes[i]!]!;
      m.n++;
      m.sum += t;
      m.squares += t * t;
    }
    if (moments[0]!.n < MIN_PER_CLASS || moments[1]!.n < MIN_PER_CLASS) continue;
    worst = Math.max(worst, Math.abs(welch(moments[0]!, moments[1]!)));
  }
  return worst;
}
