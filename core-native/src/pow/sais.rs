//! Suffix array by induced sorting: SA-IS (G. Nong, S. Zhang, W. H. Chan, "Two Efficient Algorithms for Linear
//! Time Suffix Array Construction", 2009/2011), written from the paper.
//!
//! Suffixes compare as unsigned symbols, a proper prefix first: the text behaves as if it ended with a virtual
//! sentinel smaller than every symbol. Types: suffix i is S when it is smaller than suffix i+1, else L; the last
//! suffix is L (it is larger than the sentinel). An LMS position is an S position whose left neighbour is L.
//!
//! 1. Place the LMS positions at the tails of their buckets, induce L suffixes left to right (the sentinel's
//!    predecessor n−1 first), then S suffixes right to left: this sorts the LMS *substrings*.
//! 2. Name the LMS substrings by rank; if two are equal, sort the reduced string of names recursively.
//! 3. Place the sorted LMS suffixes at their bucket tails and induce once more: the suffix array.
//!
//! For byte texts the LMS suffixes are first sorted directly (lms_sort), which replaces steps 1 and 2 unless the
//! text has long repeats.
//!
//! Scratch memory lives in a `Workspace` (one set of buffers per recursion level) that the caller keeps and reuses,
//! so repeated calls allocate nothing once the buffers have grown. The reduced string and its suffix array share
//! the output array as in the paper (at most n/2 LMS positions).

use super::lms_sort;

/// An empty slot during steps 1 and 3 (suffix 0 looks the same to induction: neither induces anything).
const EMPTY: u32 = 0;
/// Bit 31 of an entry during induction: the suffix before it is S-type.
const PRED_S: u32 = 1 << 31;

pub trait Symbol: Copy + Eq + Ord {
    fn index(self) -> usize;

    /// Sorts the LMS suffixes without steps 1 and 2 where that is faster (see lms_sort); false when it did not.
    fn sort_lms_directly(_text: &[Self], _lms: &[u32], _sorted: &mut [u32], _scratch: &mut lms_sort::Scratch) -> bool {
        false
    }

    /// Whether text[a..a + length] and text[b..b + length] are equal.
    #[inline(always)]
    fn equal_substrings(text: &[Self], a: usize, b: usize, length: usize) -> bool {
        text[a..a + length] == text[b..b + length]
    }
}

impl Symbol for u8 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }

    fn sort_lms_directly(text: &[u8], lms: &[u32], sorted: &mut [u32], scratch: &mut lms_sort::Scratch) -> bool {
        lms_sort::sort_lms_suffixes(text, lms, sorted, scratch)
    }

    /// Substrings of up to 8 bytes (most LMS substrings) compare as two masked words, without a call to memcmp.
    #[inline(always)]
    fn equal_substrings(text: &[u8], a: usize, b: usize, length: usize) -> bool {
        match (text.get(a..a + 8), text.get(b..b + 8)) {
            (Some(x), Some(y)) if (1..=8).contains(&length) => {
                let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().unwrap());
                let mask = u64::MAX >> (64 - 8 * length as u32);
                (word(x) ^ word(y)) & mask == 0
            }
            _ => text[a..a + length] == text[b..b + length],
        }
    }
}

impl Symbol for u32 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
}

#[derive(Default)]
struct Level {
    /// LMS positions in text order, at the end of the buffer (filled right to left).
    lms: Vec<u32>,
    counts: Vec<u32>,
    bucket: Vec<u32>,
}

/// Reusable buffers for `suffix_array`.
#[derive(Default)]
pub struct Workspace {
    levels: Vec<Level>,
    direct: lms_sort::Scratch,
}

#[cfg(test)]
impl Workspace {
    /// How many recursion levels have run so far (for profiling).
    pub fn depth(&self) -> usize {
        self.levels.len()
    }
}

/// Writes the suffix array of `text` into `sa` (same length, below 2^31).
pub fn suffix_array(text: &[u8], sa: &mut [u32], workspace: &mut Workspace) {
    assert_eq!(text.len(), sa.len(), "the suffix array must have one entry per byte");
    assert!(text.len() < PRED_S as usize, "text too long");
    sais(text, sa, 256, workspace, 0);
}

fn bucket_heads(counts: &[u32], bucket: &mut [u32]) {
    let mut sum = 0;
    for (head, &count) in bucket.iter_mut().zip(counts) {
        *head = sum;
        sum += count;
    }
}

fn bucket_tails(counts: &[u32], bucket: &mut [u32]) {
    let mut sum = 0;
    for (tail, &count) in bucket.iter_mut().zip(counts) {
        sum += count;
        *tail = sum;
    }
}

/// Puts the sentinel's predecessor n−1 (L-type, first of all) at the head of its bucket.
fn place_last<T: Symbol>(text: &[T], sa: &mut [u32], bucket: &mut [u32]) {
    let n = text.len();
    let c = text[n - 1];
    let before_s = n > 1 && text[n - 2] < c;
    sa[bucket[c.index()] as usize] = (n - 1) as u32 | ((before_s as u32) << 31);
    bucket[c.index()] += 1;
}

/// Suffix j−1's entry for the left-to-right scan: bit 31 set when suffix j−2 is S (j−1 being L, that is when
/// text[j−2] < text[j−1]).
#[inline(always)]
fn induced_l<T: Symbol>(text: &[T], j: usize) -> (T, u32) {
    debug_assert!(j < text.len());
    // SAFETY: j < n, as it precedes a suffix found in the array.
    let (c, before) = unsafe { (*text.get_unchecked(j), *text.get_unchecked(j.saturating_sub(1))) };
    (c, j as u32 | (((before < c) as u32) << 31))
}

/// The same for the right-to-left scan (j S-type): j−1 is S when text[j−1] ≤ text[j]; suffix 0 has no predecessor.
#[inline(always)]
fn induced_s<T: Symbol>(text: &[T], j: usize) -> (T, u32) {
    debug_assert!(j < text.len());
    // SAFETY: as in `induced_l`.
    let (c, before) = unsafe { (*text.get_unchecked(j), *text.get_unchecked(j.saturating_sub(1))) };
    (c, j as u32 | ((((before <= c) & (j != 0)) as u32) << 31))
}

/// Induces the order of L suffixes from what `sa` holds, then of S suffixes (steps 1 and 3 share it).
///
/// With `LMS_ONLY` (step 1) each entry that has induced its predecessor is cleared, so after the left-to-right scan
/// only L suffixes preceded by an S suffix remain, and after the right-to-left scan only the S suffixes preceded by an
/// L suffix: the LMS positions, in the order of their substrings. Without it (step 3) the whole suffix array results,
/// bit 31 cleared by the last scan.
///
/// During induction bit 31 of an entry says whether the suffix before it is S-type: computed when the entry is
/// written, it spares the scans a random read of the types. Empty slots hold 0, like suffix 0, which induces nothing.
///
/// Bucket pointers and symbols are used unchecked in the scans (bounds checks cost ~7%): symbols are below the
/// alphabet size (bytes below 256, names below their count), and each bucket pointer stays inside its bucket, whose
/// slots the induced suffixes fill exactly (the invariant of induced sorting, checked in debug builds).
#[inline(always)]
fn induce<T: Symbol, const LMS_ONLY: bool>(text: &[T], sa: &mut [u32], counts: &[u32], bucket: &mut [u32]) {
    bucket_heads(counts, bucket);
    place_last(text, sa, bucket);
    for i in 0..sa.len() {
        let v = sa[i];
        if (v as i32) > 0 {
            if LMS_ONLY {
                sa[i] = EMPTY;
            }
            let (c, entry) = induced_l(text, v as usize - 1);
            debug_assert!(c.index() < bucket.len() && (bucket[c.index()] as usize) < sa.len());
            // SAFETY: see above.
            unsafe {
                let head = *bucket.get_unchecked(c.index());
                *sa.get_unchecked_mut(head as usize) = entry;
                *bucket.get_unchecked_mut(c.index()) = head + 1;
            }
        }
    }
    bucket_tails(counts, bucket);
    for i in (0..sa.len()).rev() {
        let v = sa[i];
        if !LMS_ONLY {
            sa[i] = v & !PRED_S;
        }
        if (v as i32) < 0 {
            if LMS_ONLY {
                sa[i] = EMPTY;
            }
            let (c, entry) = induced_s(text, (v & !PRED_S) as usize - 1);
            debug_assert!(c.index() < bucket.len() && bucket[c.index()] >= 1);
            // SAFETY: see above.
            unsafe {
                let tail = *bucket.get_unchecked(c.index()) - 1;
                *sa.get_unchecked_mut(tail as usize) = entry;
                *bucket.get_unchecked_mut(c.index()) = tail;
            }
        }
    }
}

/// Steps 1 and 2: leaves the LMS positions `lms` in sa[..n1] in the order of their suffixes.
fn sort_lms_by_induction<T: Symbol>(
    text: &[T],
    sa: &mut [u32],
    lms: &[u32],
    counts: &[u32],
    bucket: &mut [u32],
    workspace: &mut Workspace,
    depth: usize,
) {
    let (n, n1) = (text.len(), lms.len());
    // Step 1: sort the LMS substrings.
    sa.fill(EMPTY);
    bucket_tails(counts, bucket);
    for &p in lms.iter().rev() {
        let c = text[p as usize].index();
        bucket[c] -= 1;
        sa[bucket[c] as usize] = p;
    }
    induce::<T, true>(text, sa, counts, bucket);

    // Step 2: the LMS positions, now in the order of their substrings, to the front.
    let mut m = 0;
    for i in 0..n {
        let p = sa[i];
        sa[m] = p;
        m += (p != EMPTY) as usize;
    }
    debug_assert_eq!(m, n1);
    // Name them by rank. Slot n1 + p/2 (distinct: LMS positions are ≥ 2 apart) first holds the length of the LMS
    // substring at p, then its name. Equal lengths and symbols imply equal types (the last symbol of both is LMS,
    // and types follow from the symbols leftwards). The last substring runs into the sentinel: length 0, unique.
    for k in 0..n1 {
        let p = lms[k] as usize;
        sa[n1 + p / 2] = if k + 1 < n1 { lms[k + 1] - lms[k] + 1 } else { 0 };
    }
    let mut names = 0u32;
    let (mut previous, mut previous_length) = (0usize, u32::MAX);
    for i in 0..n1 {
        let p = sa[i] as usize;
        let length = sa[n1 + p / 2];
        let len = length as usize;
        let same = length == previous_length && length != 0 && T::equal_substrings(text, previous, p, len);
        names += !same as u32;
        sa[n1 + p / 2] = names - 1;
        (previous, previous_length) = (p, length);
    }
    // The reduced string (names in text order) packed at the end; right to left, so no unread name is overwritten.
    for k in (0..n1).rev() {
        sa[n - n1 + k] = sa[n1 + lms[k] as usize / 2];
    }
    {
        let (front, reduced) = sa.split_at_mut(n - n1);
        let sorted = &mut front[..n1];
        if (names as usize) < n1 {
            sais(&*reduced, sorted, names as usize, workspace, depth + 1);
        } else {
            for (i, &name) in reduced.iter().enumerate() {
                sorted[name as usize] = i as u32;
            }
        }
        for rank in sorted.iter_mut() {
            *rank = lms[*rank as usize];
        }
    }
}

fn sais<T: Symbol>(text: &[T], sa: &mut [u32], alphabet: usize, workspace: &mut Workspace, depth: usize) {
    let n = text.len();
    if n == 0 {
        return;
    }
    if workspace.levels.len() <= depth {
        workspace.levels.resize_with(depth + 1, Level::default);
    }
    // Taken out while this level runs (deeper levels use the rest of the workspace), put back at the end.
    let mut level = std::mem::take(&mut workspace.levels[depth]);
    let Level { lms, counts, bucket } = &mut level;

    // Types right to left, without branches: position i+1 is LMS when it is S and i is L. LMS positions are
    // non-adjacent and ≥ 1, so at most n/2: each is written one slot below the last, and kept by moving down.
    counts.clear();
    counts.resize(alphabet, 0);
    lms.resize(n / 2 + 1, 0); // stale entries are fine: only the slots written below are read
    let mut first = lms.len();
    let (mut next_c, mut next_s) = (text[n - 1], false);
    counts[next_c.index()] += 1;
    for i in (0..n - 1).rev() {
        let c = text[i];
        counts[c.index()] += 1;
        let s = (c < next_c) | ((c == next_c) & next_s);
        lms[first - 1] = (i + 1) as u32;
        first -= (next_s & !s) as usize;
        (next_c, next_s) = (c, s);
    }
    let lms = &lms[first..];
    let n1 = lms.len();
    bucket.clear();
    bucket.resize(alphabet, 0);

    if !T::sort_lms_directly(text, lms, &mut sa[..n1], &mut workspace.direct) {
        sort_lms_by_induction(text, sa, lms, counts, bucket, workspace, depth);
    }

    // Step 3: sorted LMS suffixes to their bucket tails (last first, so none is overwritten), then induce.
    sa[n1..].fill(EMPTY);
    bucket_tails(counts, bucket);
    for i in (0..n1).rev() {
        let p = sa[i];
        sa[i] = EMPTY;
        let c = text[p as usize].index();
        bucket[c] -= 1;
        sa[bucket[c] as usize] = p;
    }
    induce::<T, false>(text, sa, counts, bucket);

    workspace.levels[depth] = level;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(text: &[u8]) -> Vec<u32> {
        let mut sa: Vec<u32> = (0..text.len() as u32).collect();
        sa.sort_by(|&a, &b| text[a as usize..].cmp(&text[b as usize..]));
        sa
    }

    fn check(text: &[u8], workspace: &mut Workspace, what: &str) {
        let mut sa = vec![0u32; text.len()];
        suffix_array(text, &mut sa, workspace);
        assert_eq!(sa, naive(text), "{what} ({} bytes)", text.len());
    }

    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            self.0 >> 33
        }
    }

    #[test]
    fn small_known_cases() {
        let mut ws = Workspace::default();
        let mut sa = vec![0u32; 6];
        suffix_array(b"banana", &mut sa, &mut ws);
        assert_eq!(sa, [5, 3, 1, 0, 4, 2], "a proper prefix sorts first");
        suffix_array(b"", &mut [], &mut ws);
        for text in
            [&b"a"[..], b"ab", b"ba", b"aa", b"abracadabra", b"mississippi", b"\xff\x00\xff\x00", b"\x00\x00\x00"]
        {
            check(text, &mut ws, "known");
        }
    }

    #[test]
    fn random_inputs_match_a_naive_sort() {
        let mut rng = Lcg(42);
        let mut ws = Workspace::default();
        for round in 0..600 {
            let length = 1 + (rng.next() % 700) as usize;
            let alphabet = [1u64, 2, 3, 4, 16, 256][round % 6];
            let text: Vec<u8> = (0..length).map(|_| (rng.next() % alphabet) as u8).collect();
            check(&text, &mut ws, &format!("random round {round}, alphabet {alphabet}"));
        }
    }

    #[test]
    fn degenerate_inputs_match_a_naive_sort() {
        let mut ws = Workspace::default();
        for length in [1, 2, 3, 4, 5, 17, 256, 1000, 4097] {
            for byte in [0u8, 1, 127, 255] {
                check(&vec![byte; length], &mut ws, &format!("all {byte}"));
            }
        }
        let mut rng = Lcg(7);
        for period in 1..=40 {
            let unit: Vec<u8> = (0..period).map(|_| rng.next() as u8).collect();
            for length in [period * 3 + 1, 500, 2049] {
                let text: Vec<u8> = (0..length).map(|i| unit[i % period]).collect();
                check(&text, &mut ws, &format!("period {period}"));
            }
        }
        // Fibonacci words (many equal LMS substrings, deep recursion), with two different letter pairs.
        for (a, b) in [(b'a', b'b'), (200u8, 3u8)] {
            let (mut x, mut y) = (vec![a], vec![a, b]);
            while y.len() < 5000 {
                let z = [y.clone(), x].concat();
                x = y;
                y = z;
            }
            check(&y, &mut ws, "Fibonacci word");
        }
        // Long runs broken rarely, and ramps up and down.
        let runs: Vec<u8> = (0..3000).map(|i| if i % 256 < 250 { 7 } else { i as u8 }).collect();
        check(&runs, &mut ws, "long runs");
        let ramp: Vec<u8> =
            (0..3000).map(|i| if (i / 255) % 2 == 0 { (i % 255) as u8 } else { 254 - (i % 255) as u8 }).collect();
        check(&ramp, &mut ws, "ramps");
    }

    #[test]
    fn like_astrobwt_output() {
        // 256-byte blocks, each a copy of the previous with a few bytes changed: the shape of the real input.
        let mut rng = Lcg(99);
        let mut ws = Workspace::default();
        let mut block: Vec<u8> = (0..256).map(|_| rng.next() as u8).collect();
        let mut text = Vec::new();
        for _ in 0..40 {
            let start = (rng.next() % 240) as usize;
            for k in 0..(rng.next() % 16) as usize {
                block[start + k] = rng.next() as u8;
            }
            text.extend_from_slice(&block);
        }
        check(&text, &mut ws, "repeated blocks");
    }
}
