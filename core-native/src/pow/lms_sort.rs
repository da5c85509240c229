//! SA-IS's first level for byte texts, shortened: the LMS suffixes are sorted directly instead of by inducing the
//! order of the LMS substrings, naming them and recursing. They are grouped by their first three bytes (a radix
//! sort), then each group sharing a prefix is sorted on the next 8 bytes as one big-endian word, and only
//! runs of equal words go 8 bytes deeper (most significant digit first radix sorting, 64-bit digits).
//!
//! AstroBWTv3's text is made of slightly edited copies of the same 256-byte state, so LMS suffixes repeat (in one
//! measured text, 22 936 LMS substrings had 6 750 names, and the recursion went 8 levels deep) while their common
//! prefixes stay short (~70 bytes on average): reading 8 bytes at a time settles them quickly. A text with long
//! repeats would need many word reads: past a budget proportional to its length the sort gives up and SA-IS takes
//! the usual way, so time stays linear.

/// Word reads allowed per text byte before giving up.
const BUDGET_PER_BYTE: usize = 8;

/// Buffers reused from call to call.
#[derive(Default)]
pub struct Scratch {
    packed: Vec<u64>,
    staged: Vec<u64>,
    keyed: Vec<(u64, u8, u32)>,
    /// Groups still to sort: (start, end) in the output and the depth their members agree up to.
    pending: Vec<(usize, usize, usize)>,
}

/// The 8 bytes of `text` from `at` as a big-endian word, zero-padded past the end, and how many of them exist: of
/// two suffixes with equal padded words, the one with fewer bytes is a proper prefix of the other, so it sorts first.
#[inline(always)]
fn word_at(text: &[u8], at: usize) -> (u64, u8) {
    match text.get(at..at + 8) {
        Some(bytes) => (u64::from_be_bytes(bytes.try_into().unwrap()), 8),
        None => {
            let tail = &text[at.min(text.len())..];
            let mut bytes = [0u8; 8];
            bytes[..tail.len()].copy_from_slice(tail);
            (u64::from_be_bytes(bytes), tail.len() as u8)
        }
    }
}

/// How many bytes the suffixes at a and b have in common, counting no further than `limit`.
#[inline(always)]
fn common_prefix(text: &[u8], a: usize, b: usize, limit: usize) -> usize {
    let (x, y) = (&text[a..], &text[b..]);
    let available = x.len().min(y.len());
    let length = available.min(limit);
    let chunk = |bytes: &[u8], k: usize| -> [u8; 32] { bytes[k..k + 32].try_into().unwrap() };
    let mut k = 0;
    while k + 32 <= length && chunk(x, k) == chunk(y, k) {
        k += 32;
    }
    // Whole words while the text lasts, even past the limit (the answer is capped), so that a short limit costs no
    // byte loop.
    while k < length && k + 8 <= available {
        let word = |bytes: &[u8]| u64::from_le_bytes(bytes[k..k + 8].try_into().unwrap());
        let difference = word(x) ^ word(y);
        if difference != 0 || k + 8 >= length {
            return (k + (difference.trailing_zeros() / 8) as usize).min(length);
        }
        k += 8;
    }
    while k < length && x[k] == y[k] {
        k += 1;
    }
    k
}

/// Sorts entries (a 24-bit prefix above a 32-bit position) by prefix, stably: three counting sorts, one byte each
/// from the lowest, their counts taken in one pass. The result ends in `entries`.
fn sort_by_prefix(entries: &mut Vec<u64>, spare: &mut Vec<u64>) {
    let mut next = [[0u32; 256]; 3];
    for &entry in entries.iter() {
        for (pass, counts) in next.iter_mut().enumerate() {
            counts[(entry >> (32 + 8 * pass)) as usize & 0xff] += 1;
        }
    }
    for (pass, counts) in next.iter_mut().enumerate() {
        let mut sum = 0;
        for slot in counts.iter_mut() {
            (*slot, sum) = (sum, sum + *slot);
        }
        for &entry in entries.iter() {
            let b = (entry >> (32 + 8 * pass)) as usize & 0xff;
            spare[counts[b] as usize] = entry;
            counts[b] += 1;
        }
        std::mem::swap(entries, spare);
    }
}

/// Pushes onto `pending` the runs of two or more equal entries among `count` sorted ones (`same(k)`: entry k equals
/// entry k − 1), as groups at `offset` + their indices that agree up to `depth`. Without a branch per entry: whether
/// neighbours are equal is as good as random, and mispredicting it cost more than the rest of the loop. Each entry
/// writes the group that would end there, kept when one does; runs have two entries or more, so at most count/2.
#[inline(always)]
fn push_runs(
    pending: &mut Vec<(usize, usize, usize)>,
    count: usize,
    offset: usize,
    depth: usize,
    same: impl Fn(usize) -> bool,
) {
    let mut top = pending.len();
    pending.resize(top + count / 2 + 1, (0, 0, 0));
    let mut start = 0;
    for end in 1..=count {
        let ends = end == count || !same(end);
        pending[top] = (offset + start, offset + end, depth);
        top += (ends & (end - start > 1)) as usize;
        start = if ends { end } else { start };
    }
    pending.truncate(top);
}

/// Writes the LMS positions `lms` into `sorted` in the order of their suffixes; false (and `sorted` unspecified) when
/// the budget runs out. LMS positions are below n − 1 (the last suffix is L-type), so each has at least two bytes.
pub fn sort_lms_suffixes(text: &[u8], lms: &[u32], sorted: &mut [u32], scratch: &mut Scratch) -> bool {
    let n1 = lms.len();
    let Scratch { packed, staged, keyed, pending } = scratch;
    // Each position with its first three bytes above it (read in text order; a missing third byte reads 0, so the
    // groups are only sure to agree on two), sorted by that prefix.
    packed.clear();
    packed.extend(lms.iter().map(|&p| {
        let p = p as usize;
        let third = text.get(p + 2).copied().unwrap_or(0);
        let prefix = u32::from_be_bytes([0, text[p], text[p + 1], third]);
        (prefix as u64) << 32 | p as u64
    }));
    staged.resize(n1, 0); // the counting sort's target: every entry is written before it is read
    sort_by_prefix(packed, staged);

    pending.clear();
    push_runs(pending, n1, 0, 2, |k| packed[k] >> 32 == packed[k - 1] >> 32);
    for (slot, &entry) in sorted.iter_mut().zip(packed.iter()) {
        *slot = entry as u32;
    }

    let mut budget = BUDGET_PER_BYTE * text.len();
    while let Some((start, end, depth)) = pending.pop() {
        let group = &mut sorted[start..end];
        // Skip what the whole group has in common (often tens of bytes), then sort on the next word.
        let leader = group[0] as usize + depth;
        let mut common = usize::MAX;
        for &p in &group[1..] {
            common = common_prefix(text, leader, p as usize + depth, common);
            let reads = common / 8 + 1;
            if reads > budget {
                return false;
            }
            budget -= reads;
        }
        let depth = depth + common;
        keyed.clear();
        keyed.extend(group.iter().map(|&p| {
            let (word, present) = word_at(text, p as usize + depth);
            (word, present, p)
        }));
        keyed.sort_unstable_by_key(|&(word, present, _)| (word, present));
        for (slot, &(_, _, p)) in group.iter_mut().zip(keyed.iter()) {
            *slot = p;
        }
        // Runs of equal keys have all 8 bytes (fewer would mean the same end of text, so the same suffix).
        push_runs(pending, keyed.len(), start, depth + 8, |k| {
            (keyed[k].0 == keyed[k - 1].0) & (keyed[k].1 == keyed[k - 1].1)
        });
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The LMS positions of `text` (S-type, preceded by an L-type; the last suffix is L-type).
    fn lms_positions(text: &[u8]) -> Vec<u32> {
        let n = text.len();
        let mut s = vec![false; n];
        for i in (0..n.saturating_sub(1)).rev() {
            s[i] = text[i] < text[i + 1] || (text[i] == text[i + 1] && s[i + 1]);
        }
        (1..n).filter(|&i| s[i] && !s[i - 1]).map(|i| i as u32).collect()
    }

    fn sort(text: &[u8]) -> Option<Vec<u32>> {
        let lms = lms_positions(text);
        let mut sorted = vec![0; lms.len()];
        sort_lms_suffixes(text, &lms, &mut sorted, &mut Scratch::default()).then_some(sorted)
    }

    #[test]
    fn sorts_like_a_comparison_sort() {
        // Slightly edited copies of one block, as in AstroBWTv3's text.
        let mut x = 5u64;
        let mut random = || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) as usize
        };
        let mut block: Vec<u8> = (0..256).map(|_| random() as u8).collect();
        let mut text = Vec::new();
        for round in 0..60 {
            for _ in 0..16 {
                block[random() % 256] = random() as u8;
            }
            text.extend_from_slice(&block);
            let mut expected = lms_positions(&text);
            expected.sort_by(|&a, &b| text[a as usize..].cmp(&text[b as usize..]));
            assert_eq!(sort(&text), Some(expected), "round {round}");
        }
    }

    #[test]
    fn gives_up_on_long_repeats() {
        let text: Vec<u8> = (0..20_000).map(|i| [3, 1, 2][i % 3]).collect();
        assert_eq!(sort(&text), None);
    }
}
