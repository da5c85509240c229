/**
 * Suffix array by prefix doubling with radix (counting) sorts: O(n log n), suffixes compared as unsigned bytes, a
 * proper prefix sorting first.
 */
export function suffixArray(data: Uint8Array, n = data.length): Int32Array {
  const sa = new Int32Array(n);
  if (n === 0) return sa;
  let rank = new Int32Array(n);
  let next = new Int32Array(n);
  const second = new Int32Array(n);
  const count = new Int32Array(Math.max(256, n) + 1);
  // Initial order: by first byte.
  for (let i = 0; i < n; i++) count[data[i]! + 1]!++;
  for (let c = 1; c <= 256; c++) count[c]! += count[c - 1]!;
  for (let i = 0; i < n; i++) sa[count[data[i]!]!++] = i;
  rank[sa[0]!] = 0;
  let classes = 1;
  for (let k = 1; k < n; k++) {
    if (data[sa[k]!] !== data[sa[k - 1]!]) classes++;
    rank[sa[k]!] = classes - 1;
  }
  for (let length = 1; classes < n; length <<= 1) {
    // Order by the second half: suffixes without one first (they are proper prefixes), then by rank of i + length.
    let p = 0;
    for (let i = n - length; i < n; i++) second[p++] = i;
    for (let k = 0; k < n; k++) if (sa[k]! >= length) second[p++] = sa[k]! - length;
    // Stable counting sort by the first half.
    count.fill(0, 0, classes + 1);
    for (let i = 0; i < n; i++) count[rank[i]! + 1]!++;
    for (let c = 1; c <= classes; c++) count[c]! += count[c - 1]!;
    for (let k = 0; k < n; k++) sa[count[rank[second[k]!]!]!++] = second[k]!;
    next[sa[0]!] = 0;
    classes = 1;
    for (let k = 1; k < n; k++) {
      const a = sa[k - 1]!;
      const b = sa[k]!;
      const ra = a + length < n ? rank[a + length]! : -1;
      const rb = b + length < n ? rank[b + length]! : -1;
      if (rank[a] !== rank[b] || ra !== rb) classes++;
      next[b] = classes - 1;
    }
    [rank, next] = [next, rank];
  }
  return sa;
}
